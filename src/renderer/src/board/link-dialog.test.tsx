// @vitest-environment happy-dom
// "Wait for…": the task view's button opens the dialog, which offers the other tasks, links the one picked and
// shows the desk's refusal when the link would close a cycle.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/api-error';
import { detailOf, resetDesk, seedDesk } from '../state/test-desk';
import { summary } from '../state/test-events';
import { Notices } from '../ui/notices';
import { Dialogs } from './dialogs';
import { TaskActions } from '../task/task-actions';

const schema = summary('schema', { title: 'Add the invoices table', status: 'in-progress', submittedAt: '2025-01-01T10:00:01.000Z' });
const importer = summary('importer', { title: 'Import last year’s invoices', submittedAt: '2025-01-01T10:00:02.000Z', dependencies: ['api'] });
const api = summary('api', { title: 'Expose invoices over HTTP', submittedAt: '2025-01-01T10:00:03.000Z', dependencies: ['schema'] });

function renderBoard() {
  render(<><TaskActions taskId="api" /><Dialogs /><Notices /></>);
}

afterEach(resetDesk);

describe('dependency dialog', () => {
  it('offers every other task the card does not wait for yet', async () => {
    seedDesk([schema, importer, api]);
    renderBoard();
    await userEvent.click(screen.getByRole('button', { name: 'Wait for…' }));
    const dialog = screen.getByRole('dialog', { name: 'Wait for another task' });
    const options = within(within(dialog).getByRole('combobox', { name: 'Task' })).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['importer — Import last year’s invoices']);
  });

  it('links the picked task and closes', async () => {
    const desk = seedDesk([schema, importer, summary('docs', { title: 'Document the invoices API' }), api]);
    const added = vi.spyOn(desk, 'addDependency').mockResolvedValue(detailOf({ ...api, dependencies: ['schema', 'docs'] }));
    renderBoard();
    await userEvent.click(screen.getByRole('button', { name: 'Wait for…' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Task' }), 'docs — Document the invoices API');
    await userEvent.click(screen.getByRole('button', { name: 'Link' }));
    expect(added).toHaveBeenCalledWith('api', 'docs');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByText('Task api now waits for docs.')).toBeTruthy();
  });

  it('shows why the desk refused a link that would close a cycle', async () => {
    const desk = seedDesk([schema, importer, api]);
    vi.spyOn(desk, 'addDependency').mockRejectedValue(
      new ApiError(409, 'conflict', 'These dependencies would close a cycle: api → importer → api'));
    renderBoard();
    await userEvent.click(screen.getByRole('button', { name: 'Wait for…' }));
    await userEvent.click(screen.getByRole('button', { name: 'Link' }));
    expect((await screen.findByRole('alert')).textContent).toBe('These dependencies would close a cycle: api → importer → api');
  });

  it('closes without linking', async () => {
    const desk = seedDesk([schema, importer, api]);
    const added = vi.spyOn(desk, 'addDependency');
    renderBoard();
    await userEvent.click(screen.getByRole('button', { name: 'Wait for…' }));
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(added).not.toHaveBeenCalled();
  });
});
