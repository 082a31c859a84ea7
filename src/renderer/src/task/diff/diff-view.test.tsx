// @vitest-environment happy-dom
// The Changes tab as a reviewer uses it: the diff unified or side by side, comments on lines, and Refine
// sending them to the agent as one follow-up.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TaskDiff } from '../../../../shared/review';
import { resetDesk, seedDesk } from '../../state/test-desk';
import { summary } from '../../state/test-events';
import { ChangesTab } from './changes-tab';

const before = ['export function total(lines) {', '  let sum = 0;', '  for (const line of lines) sum += line.amount;', '  return sum;', '}', ''].join('\n');
const after = ['export function total(lines) {', '  let sum = 0;', '  for (const line of lines) sum += line.amount * line.quantity;', '  return Math.round(sum);', '}', ''].join('\n');
const diff: TaskDiff = {
  base: 'a1b2c3d', head: 'e4f5a6b',
  files: [{ path: 'src/invoice.ts', status: 'modified', additions: 2, deletions: 2, binary: false, tooLarge: false, oldText: before, newText: after }],
};

function renderChanges() {
  // happy-dom lays nothing out: give the diff's scroll box a window's height so the virtualizer draws rows.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
  const task = summary('totals', { title: 'Count quantities in invoice totals', status: 'completed', commit: 'e4f5a6b' });
  const api = seedDesk([task]);
  vi.spyOn(api, 'diff').mockResolvedValue(diff);
  render(<ChangesTab taskId="totals" />);
  return { api, task };
}

afterEach(resetDesk);

/** The lines a reviewer can comment on, in reading order: the layout shows in what sits beside what. */
function commentTargets(): string[] {
  const diff = screen.getByRole('group', { name: 'Changes in src/invoice.ts' });
  return within(diff).getAllByRole('button', { name: /^Comment on/ }).map((button) => button.getAttribute('aria-label') ?? '');
}

describe('diff view', () => {
  it('shows the removed lines, then the added ones, in the unified layout', async () => {
    renderChanges();
    await screen.findByRole('group', { name: 'Changes in src/invoice.ts' });
    expect(screen.getByText('1 file changed, +2 −2')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Unified', pressed: true })).toBeTruthy();
    expect(commentTargets()).toEqual([
      'Comment on line 1 of src/invoice.ts', 'Comment on line 2 of src/invoice.ts',
      'Comment on removed line 3 of src/invoice.ts', 'Comment on removed line 4 of src/invoice.ts',
      'Comment on line 3 of src/invoice.ts', 'Comment on line 4 of src/invoice.ts',
      'Comment on line 5 of src/invoice.ts',
    ]);
  });

  it('puts each removed line beside the line that replaced it, side by side', async () => {
    renderChanges();
    await screen.findByRole('group', { name: 'Changes in src/invoice.ts' });
    await userEvent.click(screen.getByRole('button', { name: 'Side by side' }));
    expect(screen.getByRole('button', { name: 'Side by side', pressed: true })).toBeTruthy();
    expect(commentTargets()).toEqual([
      'Comment on line 1 of src/invoice.ts', 'Comment on line 2 of src/invoice.ts',
      'Comment on removed line 3 of src/invoice.ts', 'Comment on line 3 of src/invoice.ts',
      'Comment on removed line 4 of src/invoice.ts', 'Comment on line 4 of src/invoice.ts',
      'Comment on line 5 of src/invoice.ts',
    ]);
  });

  it('gathers line comments and sends them with Refine as one follow-up', async () => {
    const { api, task } = renderChanges();
    const followUp = vi.spyOn(api, 'followUp').mockResolvedValue({ ...task, status: 'queued' });
    await screen.findByRole('group', { name: 'Changes in src/invoice.ts' });
    expect((screen.getByRole('button', { name: 'Refine' }) as HTMLButtonElement).disabled).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Comment on line 3 of src/invoice.ts' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Comment' }), 'Skip lines without a quantity');
    await userEvent.click(screen.getByRole('button', { name: 'Add comment' }));
    await userEvent.click(screen.getByRole('button', { name: 'Comment on removed line 4 of src/invoice.ts' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Comment' }), 'Keep returning the exact sum');
    await userEvent.click(screen.getByRole('button', { name: 'Add comment' }));
    expect(screen.getByText('Skip lines without a quantity')).toBeTruthy();
    expect(screen.getByText('2 comments')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Refine' }));
    expect(followUp).toHaveBeenCalledWith('totals', [
      'Please refine your changes after these review comments:', '',
      '- src/invoice.ts:3: Skip lines without a quantity',
      '- src/invoice.ts:4 (removed line): Keep returning the exact sum',
    ].join('\n'));
    expect(screen.queryByText('Skip lines without a quantity')).toBeNull();
    expect(screen.queryByText('2 comments')).toBeNull();
  });

  it('forgets a comment the reviewer removes or discards', async () => {
    renderChanges();
    await screen.findByRole('group', { name: 'Changes in src/invoice.ts' });
    await userEvent.click(screen.getByRole('button', { name: 'Comment on line 5 of src/invoice.ts' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Comment' }), 'Export a default too');
    await userEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect(screen.queryByRole('textbox', { name: 'Comment' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Comment on line 1 of src/invoice.ts' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Comment' }), 'Type the lines');
    await userEvent.click(screen.getByRole('button', { name: 'Add comment' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove comment on line 1 of src/invoice.ts' }));
    expect(screen.queryByText('Type the lines')).toBeNull();
    expect((screen.getByRole('button', { name: 'Refine' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
