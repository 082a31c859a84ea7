// @vitest-environment happy-dom
// "Wait for…": the task view's button opens the dialog, whose search box offers only the tasks this one can still wait
// for (saying why the others are not offered), links the one picked and shows the desk's refusal if it comes.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/api-error';
import { detailOf, resetDesk, seedDesk } from '../state/test-desk';
import { summary } from '../state/test-events';
import { Notices } from '../ui/notices';
import { TaskActions } from '../task/task-actions';
import { Dialogs } from './dialogs';

const schema = summary('schema', { title: 'Add the invoices table', status: 'in-progress', submittedAt: '2025-01-01T10:00:01.000Z' });
const importer = summary('importer', { title: 'Import last year’s invoices', submittedAt: '2025-01-01T10:00:02.000Z', dependencies: ['api'] });
const api = summary('api', { title: 'Expose invoices over HTTP', submittedAt: '2025-01-01T10:00:03.000Z', dependencies: ['schema'] });
const docs = summary('docs', { title: 'Document the invoices API', submittedAt: '2025-01-01T10:00:04.000Z' });
const merged = summary('merged', { title: 'Set up the project', status: 'completed', review: 'approved', submittedAt: '2025-01-01T10:00:00.000Z' });

function renderBoard() {
  render(<><TaskActions taskId="api" /><Dialogs /><Notices /></>);
}

async function openDialog() {
  await userEvent.click(screen.getByRole('button', { name: 'Wait for…' }));
  return screen.getByRole('dialog', { name: 'Wait for another task' });
}

afterEach(resetDesk);

describe('dependency dialog', () => {
  it('offers only tasks it can still wait for, and says why the others are not offered', async () => {
    seedDesk([merged, schema, importer, api, docs]);
    renderBoard();
    const dialog = await openDialog();
    const options = within(dialog).getAllByRole('option');
    const offered = options.filter((option) => option.getAttribute('aria-disabled') !== 'true').map((option) => option.textContent);
    expect(offered).toEqual(['docs Document the invoices API']);
    const why = Object.fromEntries(options.filter((option) => option.getAttribute('aria-disabled') === 'true')
      .map((option) => [option.querySelector('code')?.textContent, option.querySelector('.dep-why')?.textContent]));
    expect(why).toEqual({
      merged: 'Not offered: finished (completed): nothing left to wait for',
      schema: 'Not offered: already waited for',
      importer: 'Not offered: would close a cycle: api → importer → api',
    });
  });

  it('searches by id or title, links the picked task and closes', async () => {
    const desk = seedDesk([schema, importer, summary('tests', { title: 'Test the importer' }), docs, api]);
    const added = vi.spyOn(desk, 'addDependency').mockResolvedValue(detailOf({ ...api, dependencies: ['schema', 'docs'] }));
    renderBoard();
    const dialog = await openDialog();
    await userEvent.type(within(dialog).getByRole('combobox', { name: 'Task' }), 'document');
    const offered = within(dialog).getAllByRole('option').filter((option) => option.getAttribute('aria-disabled') !== 'true');
    expect(offered.map((option) => option.textContent)).toEqual(['docs Document the invoices API']);
    await userEvent.keyboard('{Enter}');
    expect(within(dialog).getByRole('option', { selected: true }).textContent).toBe('docs Document the invoices API');
    await userEvent.click(screen.getByRole('button', { name: 'Link' }));
    expect(added).toHaveBeenCalledWith('api', 'docs');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByText('Task api now waits for docs.')).toBeTruthy();
  });

  it('shows why the desk refused a link', async () => {
    const desk = seedDesk([schema, importer, api, docs]);
    vi.spyOn(desk, 'addDependency').mockRejectedValue(new ApiError(409, 'conflict', 'These dependencies would close a cycle: api → docs → api'));
    renderBoard();
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('option', { name: /^docs/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Link' }));
    expect((await screen.findByRole('alert')).textContent).toBe('These dependencies would close a cycle: api → docs → api');
  });

  it('closes without linking', async () => {
    const desk = seedDesk([schema, importer, api]);
    const added = vi.spyOn(desk, 'addDependency');
    renderBoard();
    await openDialog();
    expect(screen.getByRole('button', { name: 'Link' }).hasAttribute('disabled')).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(added).not.toHaveBeenCalled();
  });
});
