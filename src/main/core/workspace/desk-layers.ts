// The desk's task layers and the snapshots under them (issue 41), as the composition root opens them: whether layers
// can be mounted here is found at once, in the background, and said in the log when they cannot (each task then gets a
// checkout, as before). A layer's removal (its task's worktree retired) ends the task's lease on its snapshot, and
// snapshots nothing uses any more go, but each repository's newest.
import { join } from 'node:path';
import type { DiskUse } from '../../../shared/disk';
import { createGitRunner } from '../git/git-runner';
import type { SpareProcesses } from '../host/spare-processes';
import type { RepoOpener, RepoSet } from '../repos/repo-set';
import { sweepTaskLayers } from '../sandbox/layer-sweep';
import { findNamespaceTools } from '../sandbox/state-namespace';
import { createTaskLayers, taskLayersDir } from '../sandbox/task-layers';
import type { LayerMode } from './layer-choice';
import { runPrepareCommand } from './run-prepare';
import { measureDiskUse } from './snapshot-disk-use';
import { createSnapshotStore, type SnapshotStore } from './snapshot-store';

export type DeskLayers = NonNullable<RepoOpener['layers']> & {
  snapshotStore: SnapshotStore;
  /**
   * The work started with them, in the background: what an earlier run left half made cleared, and the probe of whether
   * layers mount here. The desk waits for it before it stops, or the probe would make its folder again in a data dir
   * removed meanwhile. Never rejects.
   */
  started: Promise<unknown>;
};

export function openDeskLayers(dataDir: string, mode: LayerMode, log: (line: string) => void, spares: Pick<SpareProcesses, 'take'>): DeskLayers {
  const snapshotStore = createSnapshotStore({ dir: join(dataDir, 'snapshots'), git: createGitRunner({ hooksDir: join(dataDir, 'no-hooks') }), runPrepare: runPrepareCommand });
  const taskLayers = createTaskLayers({
    dataDir, tools: findNamespaceTools(process.env.PATH ?? ''), spares,
    onRemoved: async (taskId) => {
      await snapshotStore.release(taskId);
      await snapshotStore.sweep();
    },
  });
  const cleared = snapshotStore.start().catch((error: unknown) => log(`Snapshots: could not clear what an earlier run left half made (${error instanceof Error ? error.message : String(error)}).`));
  const probed = taskLayers.refusal().then((why) => {
    if (why !== undefined) log(`Worktrees are checkouts of their own: copy-on-write layers cannot be mounted here (${why}).`);
  });
  return { taskLayers, snapshotStore, mode, started: Promise.allSettled([cleared, probed]) };
}

/** Ends the desk's layers: waits for their background start (see `started`), then ends every layer's holder. */
export async function closeDeskLayers(layers: DeskLayers | undefined): Promise<void> {
  await layers?.started;
  layers?.taskLayers.close();
}

/**
 * Removes, in the background, the layers a crash (or a worktree removed while the desk was down) left behind
 * (../sandbox/layer-sweep.ts). Never rejects: what it could not finish is looked at again next start.
 */
export function sweepLayersAtStart(layers: DeskLayers, repos: Pick<RepoSet, 'list'>, log: (line: string) => void): Promise<unknown> {
  return sweepTaskLayers({
    layers: layers.taskLayers, repos: () => repos.list(), log,
    release: (taskId) => layers.snapshotStore.release(taskId),
    sweepSnapshots: () => layers.snapshotStore.sweep(),
  }).catch((error: unknown) => log(`Task layers: the start-up sweep stopped (${error instanceof Error ? error.message : String(error)}); what it left is looked at again next start.`));
}

/** The data dir's disk use by snapshots and layers, for Settings, and whether worktrees are layers here and why not. */
export async function layersDiskUse(dataDir: string, layers: DeskLayers | undefined): Promise<DiskUse> {
  const measured = await measureDiskUse({ snapshotsDir: join(dataDir, 'snapshots'), layersDir: taskLayersDir(dataDir) });
  const refused = layers ? await layers.taskLayers.refusal() : 'the desk was started with layers turned off';
  return { ...measured, worktrees: refused === undefined ? { kind: 'layers' as const } : { kind: 'checkouts' as const, reason: refused } };
}
