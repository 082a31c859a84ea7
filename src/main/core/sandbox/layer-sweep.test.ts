import { describe, expect, it } from 'vitest';
import type { LayerUse } from '../git/layer-use';
import { sweepTaskLayers, type LayerSweepDeps } from './layer-sweep';
import type { ListedLayer } from './task-layers';

const file = (taskId: string) => ({ taskId, base: 'b'.repeat(40), lower: '/snapshots/s/tree', target: `/wt/${taskId}` });

/** A sweep over `listed` layers, each task's use as `uses` says (a thrown Error for facts that cannot be read). */
function sweepWith(listed: ListedLayer[], uses: Record<string, LayerUse | Error>, repoOwns = (taskId: string) => taskId !== 'elsewhere') {
  const done = { discarded: [] as string[], released: [] as string[], cleared: 0, snapshotsSwept: 0, logged: [] as string[] };
  const deps: LayerSweepDeps = {
    layers: {
      list: async () => listed,
      discard: async (name) => { done.discarded.push(name); },
      clearRemoved: async () => { done.cleared += 1; },
    },
    repos: () => [{
      git: {
        worktreePathFor: (taskId) => (repoOwns(taskId) ? `/wt/${taskId}` : `/other/${taskId}`),
        judgeLayer: async (layer, then) => {
          const use = uses[layer.taskId];
          if (!use || use instanceof Error) throw use ?? new Error('no facts');
          await then(use);
          return use;
        },
      },
    }],
    release: async (taskId) => { done.released.push(taskId); },
    sweepSnapshots: async () => { done.snapshotsSwept += 1; },
    log: (line) => done.logged.push(line),
  };
  return { run: () => sweepTaskLayers(deps), done };
}

describe('the start-up sweep of task layers', () => {
  it('removes an unused layer and drops its lease, keeps a used one, then sweeps the snapshots', async () => {
    const { run, done } = sweepWith(
      [{ name: 'a', removing: false, file: file('gone') }, { name: 'b', removing: false, file: file('live') }],
      { gone: { kind: 'unused', why: 'its folder is gone' }, live: { kind: 'used' } },
    );
    expect(await run()).toEqual({ removed: ['a'], leftAlone: [] });
    expect(done).toMatchObject({ discarded: ['a'], released: ['gone'], cleared: 1, snapshotsSwept: 1 });
    expect(done.logged).toEqual(['Task layer a (task gone) is removed, and the task\'s lease on its snapshot dropped: its folder is gone.']);
  });

  it('leaves alone, and logs, a layer it cannot read, one no open repository holds, one it is unsure of and one whose facts fail', async () => {
    const { run, done } = sweepWith([
      { name: 'a', removing: false, problem: 'it has no layer.json' },
      { name: 'b', removing: false, file: file('elsewhere') },
      { name: 'c', removing: false, file: file('odd') },
      { name: 'd', removing: false, file: file('broken') },
    ], { odd: { kind: 'unsure', why: 'its link is odd' }, broken: new Error('EACCES') });
    expect(await run()).toEqual({ removed: [], leftAlone: ['a', 'b', 'c', 'd'] });
    expect(done).toMatchObject({ discarded: [], released: [], snapshotsSwept: 0 });
    expect(done.logged).toEqual([
      'Task layer a is left alone: it has no layer.json.',
      'Task layer b (task elsewhere, worktree /wt/elsewhere) is left alone: no repository open now holds its worktree.',
      'Task layer c (task odd, worktree /wt/odd) is left alone: its link is odd.',
      'Task layer d (task broken, worktree /wt/broken) is left alone: what uses it could not be read (EACCES).',
    ]);
  });

  it('finishes a removal a crash stopped, dropping the lease unless the task has a worktree again', async () => {
    const { run, done } = sweepWith([
      { name: '.removing-a', removing: true, file: file('crashed') },
      { name: '.removing-b', removing: true, file: file('again') },
      { name: '.removing-c', removing: true, problem: 'it has no layer.json' },
    ], { crashed: { kind: 'unused', why: 'gone' }, again: { kind: 'used' } });
    expect(await run()).toEqual({ removed: ['.removing-a', '.removing-b', '.removing-c'], leftAlone: [] });
    expect(done).toMatchObject({ discarded: [], released: ['crashed'], cleared: 1, snapshotsSwept: 1 });
    expect(done.logged).toEqual([]);
  });
});
