// Commits of a worktree that is a layer over a snapshot of its base (../sandbox/task-layers.ts): the commit is made from
// what the task wrote to its layer (./layer-commit.ts), without a checkout, a scan of the tree or a read of the index.
// The worktree's index is brought to the commit later, when something is about to use it (./layer-index.ts).
import type { Identity } from './commit-identity';
import type { GitRepo, GitRunner } from './git-runner';
import type { KnownObjects } from './known-objects';
import { readPlainSync } from './plain-file';
import { commitLayer, commitLayerAlways } from './layer-commit';
import { noteIndexBehind } from './layer-index';
import { layerTree, type LayerTreeRequest, type LayerView } from './layer-tree';
import { namespacedGit, type NamespaceIds } from './namespaced-git';
import type { MountedTaskLayer } from '../sandbox/task-layers';

export interface LayeredWorktree {
  /** The worktree as the desk names it (its git dir from the desk's records). */
  repo: GitRepo;
  view: LayerView;
  /** The tree of the commit the layer's snapshot is a checkout of. */
  baseTree: string;
  /** Where scratch files go, out of the agent's reach. */
  scratchDir: string;
  /** git run inside the layer's namespace, for commands that need the worktree's files (./namespaced-git.ts). */
  filesGit: GitRunner;
  /** The layer's own folder, where the desk notes how far the worktree's index is behind its branch. */
  layerDir: string;
  /** Trees and commits the desk read before, shared by the repository's worktrees (./known-objects.ts). */
  known?: KnownObjects;
  /** The snapshot's ignore rules as a kept git answers them (./snapshot-ignore-rules.ts). */
  snapshot?: LayerTreeRequest['snapshot'];
}

/**
 * How the desk reaches a mounted layer at worktree `path`: its upper dir, the merged view through the holder, and git
 * inside its namespace (as `ids`, ./namespaced-git.ts). `onPath` finds git on the desk's PATH (../host/find-on-path.ts).
 */
export function layerAccess(git: GitRunner, layer: MountedTaskLayer, path: string, onPath: (program: string, path: string) => string | undefined, ids?: () => NamespaceIds | undefined): Pick<LayeredWorktree, 'view' | 'filesGit' | 'layerDir'> {
  const gitProgram = onPath('git', process.env.PATH ?? '') ?? 'git';
  return {
    view: { upperDir: layer.upperDir, mergedDir: layer.deskPath(path) },
    filesGit: namespacedGit(git, { enter: layer.namespace.enter, gitProgram, ...(ids && { ids }) }),
    layerDir: layer.dir,
  };
}

/**
 * Commits what the layer holds onto the worktree's branch; without `always`, commits nothing and returns undefined when
 * the tree is the head's. The branch moves only from the head read (compare-and-swap): one moved meanwhile fails the
 * commit instead of losing either side.
 */
export async function commitLayered(git: GitRunner, worktree: LayeredWorktree, message: string, identity: Identity, always = false): Promise<string | undefined> {
  const { repo } = worktree;
  const head = readPlainSync(`${repo.gitDir}/HEAD`, 4096);
  const ref = /^ref: (refs\/heads\/\S+)$/.exec(head === 'missing' || head === 'odd' ? '' : head.trim())?.[1];
  if (ref === undefined) throw new Error(`The worktree's HEAD (${repo.gitDir}/HEAD) names no branch: resubmit the task to start again.`);
  const request = { ...treeRequest(git, worktree), ref, message, identity };
  const commit = always ? await commitLayerAlways(request) : await commitLayer(request);
  if (commit !== undefined) await noteIndexBehind(worktree.layerDir, commit);
  return commit;
}

/** The tree the layer would commit now, for the live diff and the dirty checks. */
export function layerTreeOf(git: GitRunner, worktree: LayeredWorktree): Promise<string> {
  return layerTree(treeRequest(git, worktree));
}

function treeRequest(git: GitRunner, worktree: LayeredWorktree): LayerTreeRequest {
  const { repo, view, baseTree, scratchDir, known, snapshot } = worktree;
  return { git, repo, view, baseTree, scratchDir, ...(known && { known }), ...(snapshot && { snapshot }) };
}
