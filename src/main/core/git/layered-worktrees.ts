// How the git service reaches a task's worktree that is a layer over a snapshot of its base (../sandbox/task-layers.ts):
// the merged view through the layer's holder, git inside its namespace, and the worktree's index, which the layer's
// commits leave behind and syncs bring up again, one at a time.
import type { Identity } from './commit-identity';
import { createBaseTrees } from './base-trees';
import type { GitRepo, GitRunner } from './git-runner';
import { createKnownObjects } from './known-objects';
import { commitLayered, layerAccess, type LayeredWorktree } from './layered-commit';
import { syncLayerIndex } from './layer-index';
import { namespaceIdsOf, unshareMapsUsers, type NamespaceIds } from './namespaced-git';
import { createMutex } from './repo-mutex';
import { createSnapshotIgnoreRules, type SnapshotIgnoreRules } from './snapshot-ignore-rules';
import type { TaskLayers } from '../sandbox/task-layers';

export interface LayeredWorktrees {
  /** The worktree at `path` when it is a task's layer (mounted now, if it was not), with the merged view the desk reads. */
  at(path: string, worktree: GitRepo): Promise<LayeredWorktree | undefined>;
  /** The git for commands that need the worktree's files: a layer's runs inside its namespace, on an index brought up to date. */
  gitWithFiles(path: string, worktree: GitRepo): Promise<GitRunner>;
  /** Commits the layer (see ./layered-commit.ts), noting that the worktree's index is behind. */
  commit(layered: LayeredWorktree, message: string, identity: Identity, always?: boolean): Promise<string | undefined>;
  /** Brings the worktree's index to its branch when a commit left it behind. */
  syncIndex(worktree: GitRepo, layerDir: string): Promise<void>;
}

export interface LayeredWorktreesDeps {
  git: GitRunner;
  taskLayers: Pick<TaskLayers, 'open'> | undefined;
  /** Finds a program on a PATH (../host/find-on-path.ts): git and unshare, for the commands run in a layer's namespace. */
  programs: (program: string, path: string) => string | undefined;
  /** Out of the agent's reach: where the stand-in work tree for the ignore rules is made. */
  scratchDir: string;
}

export function createLayeredWorktrees({ git, taskLayers, programs, scratchDir }: LayeredWorktreesDeps): LayeredWorktrees {
  // Who the desk's git runs as inside a layer's namespace: looked up once, when git first runs in one.
  let namespaceIds: { ids: NamespaceIds | undefined } | undefined;
  const idsInLayers = () => (namespaceIds ??= {
    ids: namespaceIdsOf(process.getuid && process.getgid ? { uid: process.getuid(), gid: process.getgid() } : undefined, programs('unshare', process.env.PATH ?? ''), unshareMapsUsers),
  }).ids;
  // A layered worktree's commits note that its index is behind, and its syncs clear the note: one at a time.
  const indexLock = createMutex();
  // The base trees and branch heads of the repository's layers, read once (./known-objects.ts).
  const knownObjects = createKnownObjects();
  const baseTrees = createBaseTrees(git);
  // One kept `git check-ignore` per snapshot in use, for the repository (./snapshot-ignore-rules.ts).
  let ignoreRules: SnapshotIgnoreRules | undefined;
  const snapshotRules = (commonDir: string) => (ignoreRules ??= createSnapshotIgnoreRules(git, commonDir));

  const at = async (path: string, worktree: GitRepo): Promise<LayeredWorktree | undefined> => {
    const layer = await taskLayers?.open(path);
    if (!layer) return undefined;
    return {
      repo: worktree, ...layerAccess(git, layer, path, programs, idsInLayers), baseTree: await baseTrees.of(worktree, layer.base), scratchDir,
      known: knownObjects, snapshot: { lower: layer.lower, commit: layer.base, rules: snapshotRules(worktree.commonDir ?? worktree.gitDir) },
    };
  };
  const syncIndex = (worktree: GitRepo, layerDir: string) => indexLock.run(() => syncLayerIndex(git, worktree, layerDir));
  return {
    at,
    syncIndex,
    async gitWithFiles(path, worktree) {
      const layered = await at(path, worktree);
      if (!layered) return git;
      await syncIndex(worktree, layered.layerDir);
      return layered.filesGit;
    },
    commit: (layered, message, identity, always = false) => indexLock.run(() => commitLayered(git, layered, message, identity, always)),
  };
}
