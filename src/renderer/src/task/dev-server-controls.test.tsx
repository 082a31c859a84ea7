// @vitest-environment happy-dom
// The task panel's dev server: Start, the port while it starts, the link once the core says it answers, Stop.
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DevServerState } from '../../../shared/dev-server';
import { deskStore } from '../state/store';
import { detailOf, resetDesk, seedDesk } from '../state/test-desk';
import { summary } from '../state/test-events';
import { DevServerControls } from './dev-server-controls';

afterEach(resetDesk);

const RUNNING: DevServerState = { state: 'running', port: 41234, url: 'http://127.0.0.1:41234/', terminalId: 'dev-server-1' };

function seedTask(devServer: DevServerState | null, worktreePath: string | null = '/work/tree') {
  const task = summary('site', { status: 'completed' });
  const api = seedDesk([task]);
  const detail = detailOf(task, worktreePath === null ? {} : { worktreePath });
  deskStore.setState((state) => ({
    details: { ...state.details, site: detail },
    devServers: { site: devServer },
  }));
  return api;
}

describe('the dev server in the task panel', () => {
  it('offers to start it and asks the core to when clicked', async () => {
    const api = seedTask(null);
    const start = vi.spyOn(api, 'startDevServer').mockResolvedValue({ state: 'starting', port: 41234, terminalId: 'dev-server-1' });
    render(<DevServerControls taskId="site" />);
    fireEvent.click(screen.getByRole('button', { name: 'Start dev server' }));
    expect(start).toHaveBeenCalledWith('site');
    expect(await screen.findByText('Starting on port 41234…')).toBeTruthy();
  });

  it('shows the link once the server answers, and stops it', async () => {
    const api = seedTask(RUNNING);
    const stop = vi.spyOn(api, 'stopDevServer').mockResolvedValue({ devServer: { ...RUNNING, state: 'exited', exitCode: null, signal: 'SIGTERM' } });
    render(<DevServerControls taskId="site" />);
    expect(screen.getByRole('link', { name: 'http://127.0.0.1:41234/' }).getAttribute('href')).toBe('http://127.0.0.1:41234/');
    fireEvent.click(screen.getByRole('button', { name: 'Stop dev server' }));
    expect(stop).toHaveBeenCalledWith('site');
    expect(await screen.findByRole('button', { name: 'Start dev server' })).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('offers nothing for a task without a worktree', () => {
    seedTask(null, null);
    render(<DevServerControls taskId="site" />);
    expect(screen.queryByRole('button', { name: 'Start dev server' })).toBeNull();
  });
});
