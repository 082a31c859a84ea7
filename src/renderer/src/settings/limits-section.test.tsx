// @vitest-environment happy-dom
// Task limits as a person sees them: Settings says how tasks are bounded, or why not; a card says "unbounded"
// where its task's limits are not enforced.
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeskSettings } from '../../../shared/review';
import type { LimitsStatus } from '../../../shared/limits';
import { TaskCard } from '../board/task-card';
import { deskStore } from '../state/store';
import { resetDesk, seedDesk } from '../state/test-desk';
import { summary } from '../state/test-events';
import { LimitsSection } from './limits-section';

afterEach(resetDesk);

const ENFORCED: LimitsStatus = { mode: 'cgroup-v2', enforced: true, detail: 'Each task\'s processes share its memory and process limits: cgroup v2, written by the desk (/sys/fs/cgroup/assignment-desk-1).' };
const NOT_ENFORCED: LimitsStatus = {
  mode: 'rlimits', enforced: false, detail: 'Limits not enforced per task: each process gets the memory limit on its own data (rlimit).',
  reason: 'The desk cannot give tasks cgroups here: cgroup-v2: EACCES.', fix: 'Run the desk in a systemd user session on cgroup v2.',
};

function withLimits(limits: LimitsStatus): void {
  const settings = {
    serverName: 'Desk', repository: '/repo', baseBranch: 'main', defaultAgent: 'codex', concurrency: 2, dependenciesAfter: 'completed',
    pushAfterApprove: null, dataDir: '/data', quietAfterSeconds: 20,
    sandbox: { kind: 'bubblewrap', available: true, version: 'bubblewrap 0.8.0', limits },
  } satisfies DeskSettings;
  deskStore.setState({ settings });
}

describe('task limits', () => {
  it('says in Settings what bounds each task and which policy keys set the limits', () => {
    withLimits(ENFORCED);
    render(<LimitsSection />);
    const group = screen.getByRole('group', { name: 'Task limits' });
    expect(group.textContent).toContain('cgroup v2, written by the desk');
    expect(group.textContent).toContain('memoryMb');
    expect(within(group).queryByRole('alert')).toBeNull();
  });

  it('warns in Settings when limits are not enforced per task, with why and what to do', () => {
    withLimits(NOT_ENFORCED);
    render(<LimitsSection />);
    const alert = within(screen.getByRole('group', { name: 'Task limits' })).getByRole('alert');
    expect(alert.textContent).toContain('Limits not enforced per task');
    expect(alert.textContent).toContain('EACCES');
    expect(alert.textContent).toContain('systemd user session');
  });

  it('marks a local task\'s card "unbounded" only where limits are not enforced', () => {
    seedDesk([summary('local', { title: 'Build it' }), summary('boxed', { title: 'Build it elsewhere', runner: 'docker' })]);
    withLimits(NOT_ENFORCED);
    render(<><TaskCard id="local" /><TaskCard id="boxed" /></>);
    expect(within(screen.getByRole('article', { name: 'Task local' })).getByText('unbounded')).toBeTruthy();
    expect(within(screen.getByRole('article', { name: 'Task boxed' })).queryByText('unbounded')).toBeNull();
  });

  it('leaves cards unmarked where limits are enforced', () => {
    seedDesk([summary('local', { title: 'Build it' })]);
    withLimits(ENFORCED);
    render(<TaskCard id="local" />);
    expect(within(screen.getByRole('article', { name: 'Task local' })).queryByText('unbounded')).toBeNull();
  });
});
