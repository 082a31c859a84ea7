import { describe, expect, it } from 'vitest';
import type { RunnerKind } from '../../../shared/runners';
import { isDeskError } from '../../../shared/desk-error';
import type { Runner } from './runner';
import { createRunnerSet } from './runner-set';

function fakeRunner(kind: RunnerKind, capacity: number, enabled = true): Runner & { disposed: number } {
  const runner = {
    kind, capacity, enabled, disposed: 0,
    state: async () => ({ available: true, detail: `${kind} here` }),
    confines: () => kind !== 'local',
    sweep: async () => {},
    isolate: async () => ({
      kind: 'none' as const, description: '', env: {}, wrap: (command: string, args: readonly string[]) => ({ command, args: [...args] }),
      startAgent: async () => { throw new Error('not in this test'); },
      dispose: async () => { runner.disposed += 1; },
    }),
  };
  return runner;
}

const request = { taskId: 't', worktree: '/w', agent: { id: 'a', name: 'A', command: 'a', args: [], dialect: 'acp' as const, envAllowlist: [], env: {} }, log: () => {} };

describe('the runner set', () => {
  it('gives a submission the runner it names, or the default, and refuses one that is not set up', () => {
    const set = createRunnerSet([fakeRunner('local', 2), fakeRunner('docker', 1), fakeRunner('cluster', 1, false)], 'local');
    expect(set.choose(undefined)).toBe('local');
    expect(set.choose('docker')).toBe('docker');
    let error: unknown;
    try { set.choose('cluster'); } catch (caught) { error = caught; }
    expect(isDeskError(error, 'unknown_runner')).toBe(true);
  });

  it('holds tasks once a runner runs as many as its capacity, each runner on its own', () => {
    const set = createRunnerSet([fakeRunner('local', 2), fakeRunner('docker', 1)], 'local');
    expect(set.heldBy('docker', 0)).toBeUndefined();
    expect(set.heldBy('docker', 1)).toBe('Waiting: runner docker runs 1 task at once.');
    expect(set.heldBy('local', 1)).toBeUndefined();
    expect(set.extraCapacity()).toBe(1);
  });

  it('shows how many runs each runner holds, until each run is disposed (once)', async () => {
    const docker = fakeRunner('docker', 3);
    const set = createRunnerSet([fakeRunner('local', 2), docker], 'docker');
    const first = await set.isolate('docker', request);
    await set.isolate('docker', request);
    expect((await set.states()).find((state) => state.kind === 'docker')).toMatchObject({ running: 2, capacity: 3, isDefault: true, available: true });
    await first.dispose();
    await first.dispose();
    expect((await set.states()).find((state) => state.kind === 'docker')?.running).toBe(1);
    expect(docker.disposed).toBe(1);
  });
});
