// Which new worktrees are layers over a snapshot of their base (issue 41), and the snapshot each gets: one repository's
// side of ./snapshot-store.ts. A task gets a checkout instead where layers cannot be mounted (said once, at the first
// task), where its runner cannot show it (../tasks/task-runs.ts asks ./layer-choice.ts: the local runner without the
// desk's sandbox, a remote Docker daemon, the cluster), where the repository is small and has nothing to copy or
// prepare (./layer-choice.ts), or where the snapshot could not be made (said in the task's activity; a failed
// `prepare` ends the task in error instead).
import { closeSync, openSync, readSync } from 'node:fs';
import type { RepoConfig } from '../../../shared/repo-config';
import { isDeskError } from '../../../shared/desk-error';
import { branchInFiles } from '../git/branch-files';
import type { LayerBase } from '../git/prepared-worktree';
import type { SnapshotStore } from './snapshot-store';
import { linkSnapshotIndex } from './snapshot-index';
import { indexEntryCount, wantsLayer, type LayerMode } from './layer-choice';

export interface BaseSnapshotRequest {
  taskId: string;
  baseBranch: string;
  log(line: string): void;
}

export interface BaseSnapshots {
  /** The snapshot of the base branch's commit, leased to the task; undefined (and why, on `log`) when it gets a checkout. */
  snapshotFor(request: BaseSnapshotRequest): Promise<LayerBase | undefined>;
}

export interface BaseSnapshotsDeps {
  store: Pick<SnapshotStore, 'snapshot'>;
  /** undefined where layers can be mounted, else why not (../sandbox/task-layers.ts). */
  refusal(): Promise<string | undefined>;
  /** The repository's shared git dir and the person's checkout (where `copy` globs are read). */
  commonDir: string;
  checkout: string;
  /** The person's index (its header says how many files the repository tracks), and the desk's setting. */
  checkoutIndex: string;
  mode: LayerMode;
  config(): Promise<RepoConfig>;
}

export function createBaseSnapshots(deps: BaseSnapshotsDeps): BaseSnapshots {
  return {
    async snapshotFor({ taskId, baseBranch, log }) {
      if (deps.mode === 'never' || await deps.refusal() !== undefined) return undefined;
      // Three reads of small files, on every task's way to its start: the repository's config through the thread pool,
      // the index's first 12 bytes and the base's ref meanwhile, with blocking calls (microseconds, where each trip
      // through the pool costs a few hundred).
      const configRead = deps.config();
      const trackedFiles = indexEntryCount(readHeader(deps.checkoutIndex));
      const [config, base] = await Promise.all([configRead, branchInFiles(deps.commonDir, baseBranch)]);
      if (!wantsLayer({ mode: deps.mode, trackedFiles, copies: config.copy.length, prepares: config.prepare !== undefined })) return undefined;
      // A branch git must be asked about (a ref store of another kind): the task gets a checkout, as before.
      if (base?.kind !== 'found') return undefined;
      try {
        const request = { commonDir: deps.commonDir, checkout: deps.checkout, commit: base.commit, config };
        const snapshot = await deps.store.snapshot({ ...request, onProgress: (line) => log(`Snapshot of ${baseBranch} (${base.commit.slice(0, 12)}): ${line}`) }, taskId);
        return {
          commit: snapshot.commit,
          tree: snapshot.tree,
          linkIndexInto: (gitDir) => linkSnapshotIndex(snapshot, gitDir),
          lease: async () => { await deps.store.snapshot(request, taskId); },
        };
      } catch (error) {
        // The repository's own preparation failed: a checkout would give the agent an unprepared tree; the task says why.
        if (isDeskError(error, 'prepare_failed')) throw error;
        log(`The snapshot of ${baseBranch} could not be made (${error instanceof Error ? error.message : String(error)}); this task gets a checkout of its own instead.`);
        return undefined;
      }
    },
  };
}

/** The first bytes of a file (an index's header); none when it cannot be read (no index yet). */
function readHeader(file: string): Buffer {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buffer = Buffer.alloc(12);
    return buffer.subarray(0, readSync(fd, buffer, 0, 12, 0));
  } catch {
    return Buffer.alloc(0);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
