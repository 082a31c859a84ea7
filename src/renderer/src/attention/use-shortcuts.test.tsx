// @vitest-environment happy-dom
// The shortcuts on a page: keys act on the board, but never while the person types in a field.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TaskCard } from '../board/task-card';
import { deskStore } from '../state/store';
import { resetDesk, seedDesk } from '../state/test-desk';
import { summary } from '../state/test-events';
import { useShortcuts } from './use-shortcuts';

function Page() {
  useShortcuts();
  return (
    <>
      <input aria-label="Search tasks" />
      <TaskCard id="one" />
      <TaskCard id="two" />
    </>
  );
}

afterEach(resetDesk);

describe('keyboard shortcuts on the board', () => {
  it('opens the new-task dialog with n, but not while typing in a field', async () => {
    seedDesk([summary('one')]);
    render(<Page />);
    await userEvent.click(screen.getByRole('textbox', { name: 'Search tasks' }));
    await userEvent.keyboard('n');
    expect(deskStore.getState().dialog).toBeUndefined();
    expect((screen.getByRole('textbox', { name: 'Search tasks' }) as HTMLInputElement).value).toBe('n');
    (document.activeElement as HTMLElement).blur();
    await userEvent.keyboard('n');
    expect(deskStore.getState().dialog).toEqual({ kind: 'new-task' });
  });

  it('walks the cards with j and k and approves the one ready for review with a', async () => {
    const two = summary('two', { status: 'completed', submittedAt: '2025-01-01T10:00:01.000Z' });
    const api = seedDesk([summary('one', { status: 'in-progress' }), two]);
    const approve = vi.spyOn(api, 'approve').mockResolvedValue({ ...two, review: 'approved' });
    render(<Page />);
    await userEvent.keyboard('j');
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Task one');
    await userEvent.keyboard('j');
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Task two');
    await userEvent.keyboard('a');
    expect(approve).toHaveBeenCalledWith('two');
    await userEvent.keyboard('k');
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Task one');
  });
});
