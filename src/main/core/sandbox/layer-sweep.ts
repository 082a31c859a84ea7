// The start-up sweep of task layers (issue 41). A crash, or a worktree removed while the desk was down, can leave a
// layer in the data dir that no worktree uses, with its task's lease on a snapshot still held. Run in the background
// once the repositories are open: each layer is judged by the repository whose worktree it shows
// (../git/layer-use.ts), under that repository's lock; an unused one is removed and its task's leases dropped; one
// whose facts cannot be read, or whose repository is not open, is left alone and logged. Snapshots nothing uses any
// more then go, as after any layer's removal. Only the desk's own layer folders are ever deleted.
import type { GitService } from '../git/git-service';
import type { LayerUse } from '../git/layer-use';
import type { ListedLayer, TaskLayers } from './task-layers';

export interface LayerSweepDeps {
  layers: Pick<TaskLayers, 'list' | 'discard' | 'clearRemoved'>;
  /** The open repositories. */
  repos(): readonly { git: Pick<GitService, 'worktreePathFor' | 'judgeLayer'> }[];
  /** Drops every lease the task holds on a snapshot. */
  release(taskId: string): Promise<void>;
  /** Removes the snapshots no task uses (each repository's newest stays). */
  sweepSnapshots(): Promise<unknown>;
  log(line: string): void;
}

export interface LayerSweepReport {
  /** The folders removed (decided now, or earlier and stopped by a crash). */
  removed: string[];
  /** The folders left alone, each logged with why. */
  leftAlone: string[];
}

export async function sweepTaskLayers(deps: LayerSweepDeps): Promise<LayerSweepReport> {
  const report: LayerSweepReport = { removed: [], leftAlone: [] };
  let released = false;
  const leave = (layer: ListedLayer, why: string) => {
    report.leftAlone.push(layer.name);
    deps.log(`Task layer ${layer.name}${layer.file ? ` (task ${layer.file.taskId}, worktree ${layer.file.target})` : ''} is left alone: ${why}.`);
  };
  for (const layer of await deps.layers.list()) {
    const { file } = layer;
    if (layer.removing) report.removed.push(layer.name);
    if (!file) {
      if (!layer.removing) leave(layer, layer.problem ?? 'it cannot be read');
      continue;
    }
    const repo = deps.repos().find((open) => open.git.worktreePathFor(file.taskId) === file.target);
    if (!repo) {
      if (!layer.removing) leave(layer, 'no repository open now holds its worktree');
      continue;
    }
    let use: LayerUse;
    try {
      use = await repo.git.judgeLayer(file, async (judged) => {
        // A removal a crash stopped: its task's leases go too, unless the task has a worktree again (a new layer).
        if (layer.removing ? judged.kind === 'used' : judged.kind !== 'unused') return;
        if (!layer.removing) await deps.layers.discard(layer.name);
        await deps.release(file.taskId);
        released = true;
      });
    } catch (error) {
      if (!layer.removing) leave(layer, `what uses it could not be read (${error instanceof Error ? error.message : String(error)})`);
      continue;
    }
    if (layer.removing) continue;
    if (use.kind === 'unsure') leave(layer, use.why);
    if (use.kind === 'unused') {
      report.removed.push(layer.name);
      deps.log(`Task layer ${layer.name} (task ${file.taskId}) is removed, and the task's lease on its snapshot dropped: ${use.why}.`);
    }
  }
  await deps.layers.clearRemoved();
  if (released) await deps.sweepSnapshots();
  return report;
}
