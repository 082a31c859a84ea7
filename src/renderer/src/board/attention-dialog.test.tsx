// @vitest-environment happy-dom
// Approving a task whose files run on this machine: the desk refuses, the board asks once listing them, and a yes
// approves again with the confirmation; bulk approval gathers every such task into the one question.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/api-error';
import { deskStore } from '../state/store';
import { resetDesk, seedDesk } from '../state/test-desk';
import { summary } from '../state/test-events';
import { Dialogs } from './dialogs';

afterEach(resetDesk);

const HOOK = { path: '.husky/pre-commit', reason: 'It configures git hooks: its commands run on your machine when you commit or push.' };
const refusal = (id: string, files = [HOOK]) => new ApiError(409, 'conflict', `Task ${id} changes files…`, { taskId: id, files }, 'attention_unconfirmed');

describe('confirming files that run on this machine', () => {
  it('asks once, listing the files with their reasons, and approves again with confirmAttention', async () => {
    const task = summary('hooked', { status: 'completed' });
    const api = seedDesk([task]);
    const approve = vi.spyOn(api, 'approve')
      .mockRejectedValueOnce(refusal('hooked'))
      .mockResolvedValueOnce({ ...task, review: 'approved' });
    render(<Dialogs />);

    expect(await deskStore.getState().approveTask('hooked')).toBe(false);
    const dialog = await screen.findByRole('dialog', { name: 'Approve hooked? It changes files that run on your machine' });
    expect(within(dialog).getByText('.husky/pre-commit')).toBeTruthy();
    expect(within(dialog).getByText(HOOK.reason)).toBeTruthy();
    expect(deskStore.getState().toasts.filter((toast) => toast.kind === 'alert')).toEqual([]);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve with these files' }));
    expect(approve).toHaveBeenLastCalledWith('hooked', { confirmAttention: true });
    expect(approve).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('"Not yet" leaves the task in review and sends nothing more', async () => {
    const api = seedDesk([summary('hooked', { status: 'completed' })]);
    const approve = vi.spyOn(api, 'approve').mockRejectedValue(refusal('hooked'));
    render(<Dialogs />);
    await deskStore.getState().approveTask('hooked');
    await userEvent.click(await screen.findByRole('button', { name: 'Not yet' }));
    expect(approve).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('bulk approval approves the plain tasks and asks once for all the tasks with such files', async () => {
    const tasks = ['plain', 'hooked', 'agentic'].map((id) => summary(id, { status: 'completed' }));
    const api = seedDesk(tasks);
    const confirmed: string[] = [];
    vi.spyOn(api, 'approve').mockImplementation(async (id, body) => {
      if (id !== 'plain' && body?.confirmAttention !== true) throw refusal(id, id === 'agentic' ? [{ path: 'CLAUDE.md', reason: 'It instructs coding agents.' }] : [HOOK]);
      if (body?.confirmAttention) confirmed.push(id);
      return { ...(tasks.find((t) => t.id === id) ?? tasks[0]!), review: 'approved' };
    });
    deskStore.setState({ selected: ['plain', 'hooked', 'agentic'] });
    render(<Dialogs />);

    await deskStore.getState().runBulk('approve');
    expect(deskStore.getState().bulk?.results.map((r) => [r.id, r.ok])).toEqual([['plain', true], ['hooked', false], ['agentic', false]]);
    const dialog = await screen.findByRole('dialog', { name: 'Approve 2 tasks? They change files that run on your machine' });
    expect(within(dialog).getByRole('region', { name: 'Files of hooked that need attention' }).textContent).toContain('.husky/pre-commit');
    expect(within(dialog).getByRole('region', { name: 'Files of agentic that need attention' }).textContent).toContain('CLAUDE.md');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve 2 with these files' }));
    await vi.waitFor(() => expect(deskStore.getState().bulk?.running).toBe(false));
    expect(confirmed).toEqual(['hooked', 'agentic']);
    expect(deskStore.getState().bulk?.results.every((r) => r.ok)).toBe(true);
  });
});
