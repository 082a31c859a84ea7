// Commits of a worktree that is a layer over a snapshot of its base (../sandbox/task-layers.ts): the tree is read from
// what the task wrote to its layer (./layer-tree.ts), the commit and the branch's move are made without a checkout,
// and the worktree's index is brought to the new commit for the paths that changed only, so the agent's next `git
// status` neither rehashes the tree nor shows the turn's work as undone.
import { identityConfig, type Identity } from './commit-identity';
import type { GitRepo, GitRunner } from './git-runner';
import { headCommitFromFiles } from './head-file';
import { treeOfLayer, type LayerView } from './layer-tree';
import { namespacedGit } from './namespaced-git';
import type { MountedTaskLayer } from '../sandbox/task-layers';

/**
 * How the desk reads a mounted layer at worktree `path`: its upper dir, the merged view through the holder, and git
 * inside its namespace. `onPath` finds git on the desk's PATH (../host/find-on-path.ts).
 */
export function layerView(git: GitRunner, layer: MountedTaskLayer, path: string, onPath: (program: string, path: string) => string | undefined): LayerView {
  const gitProgram = onPath('git', process.env.PATH ?? '') ?? 'git';
  return { upperDir: layer.upperDir, mergedDir: layer.deskPath(path), git: namespacedGit(git, { enter: layer.namespace.enter, gitProgram }) };
}

export interface LayeredWorktree {
  /** The worktree as the desk names it (its git dir from the desk's records). */
  repo: GitRepo;
  view: LayerView;
  /** The commit the layer's snapshot is a checkout of. */
  baseCommit: string;
  /** Where scratch files go, out of the agent's reach. */
  scratchDir: string;
}

/**
 * Commits what the layer holds onto the worktree's branch; without `always`, commits nothing and returns undefined when
 * the tree is the head's. The branch moves only from the head read here (compare-and-swap): a branch moved meanwhile
 * fails the commit instead of losing either side.
 */
export async function commitLayered(git: GitRunner, worktree: LayeredWorktree, message: string, identity: Identity, always = false): Promise<string | undefined> {
  const { repo } = worktree;
  const head = (await headCommitFromFiles(repo)) ?? await git.run(repo, ['rev-parse', '--verify', 'HEAD^{commit}']);
  const [tree, headTree] = await Promise.all([
    layerTreeOf(git, worktree),
    git.run(repo, ['rev-parse', '--verify', `${head}^{tree}`]),
  ]);
  if (tree === headTree && !always) return undefined;
  const config = await identityConfig(git, repo, identity);
  // The message through stdin: a prompt may hold anything, including text that looks like an option.
  const commit = await git.run(repo, ['commit-tree', tree, '-p', head, '-F', '-'], { input: message, config });
  const branchRef = (await git.run(repo, ['symbolic-ref', '--quiet', 'HEAD'])).trim();
  await git.run(repo, ['update-ref', '-m', 'commit (Assignment Desk)', branchRef, commit, head]);
  await syncIndex(git, repo, headTree, tree);
  return commit;
}

/** The tree the layer would commit now, for the live diff and the dirty checks. */
export function layerTreeOf(git: GitRunner, worktree: LayeredWorktree): Promise<string> {
  return treeOfLayer(git, worktree.repo, worktree.view, `${worktree.baseCommit}^{tree}`, worktree.scratchDir);
}

/** Brings the worktree's index from `fromTree` to `toTree` for the paths that differ (their stat data left for git to fill). */
async function syncIndex(git: GitRunner, repo: GitRepo, fromTree: string, toTree: string): Promise<void> {
  if (fromTree === toTree) return;
  const raw = await git.run(repo, ['diff-tree', '-r', '-z', '--no-renames', '--raw', fromTree, toTree]);
  const fields = raw.split('\0');
  const lines: string[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    // ":<old mode> <new mode> <old sha> <new sha> <status>" then the path.
    const [, newMode, , newSha, status] = (fields[i] ?? '').slice(1).split(' ');
    const path = fields[i + 1] ?? '';
    lines.push(status === 'D' ? `0 ${'0'.repeat(newSha?.length ?? 40)}\t${path}` : `${newMode} ${newSha}\t${path}`);
  }
  if (lines.length > 0) await git.run(repo, ['update-index', '-z', '--index-info'], { input: `${lines.join('\0')}\0` });
}
