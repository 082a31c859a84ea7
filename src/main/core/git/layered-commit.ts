// Commits of a worktree that is a layer over a snapshot of its base (../sandbox/task-layers.ts): the commit is made from
// what the task wrote to its layer (./layer-commit.ts), without a checkout or a scan of the tree, and the worktree's
// index is then brought to the new commit for the paths that changed only, so the agent's next `git status` neither
// rehashes the tree nor shows the turn's work as undone.
import type { Identity } from './commit-identity';
import type { GitRepo, GitRunner } from './git-runner';
import { readPlainSync } from './plain-file';
import { commitLayer, commitLayerAlways } from './layer-commit';
import { runGitScript } from './git-pipe';
import { layerTree, type LayerView } from './layer-tree';
import { namespacedGit } from './namespaced-git';
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
}

/**
 * How the desk reaches a mounted layer at worktree `path`: its upper dir, the merged view through the holder, and git
 * inside its namespace. `onPath` finds git on the desk's PATH (../host/find-on-path.ts).
 */
export function layerAccess(git: GitRunner, layer: MountedTaskLayer, path: string, onPath: (program: string, path: string) => string | undefined): Pick<LayeredWorktree, 'view' | 'filesGit'> {
  const gitProgram = onPath('git', process.env.PATH ?? '') ?? 'git';
  return { view: { upperDir: layer.upperDir, mergedDir: layer.deskPath(path) }, filesGit: namespacedGit(git, { enter: layer.namespace.enter, gitProgram }) };
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
  const request = { git, repo, view: worktree.view, baseTree: worktree.baseTree, scratchDir: worktree.scratchDir, ref, message, identity };
  const commit = always ? await commitLayerAlways(request) : await commitLayer(request);
  if (commit !== undefined) await syncIndex(git, repo, commit);
  return commit;
}

/** The tree the layer would commit now, for the live diff and the dirty checks. */
export function layerTreeOf(git: GitRunner, worktree: LayeredWorktree): Promise<string> {
  return layerTree({ git, repo: worktree.repo, view: worktree.view, baseTree: worktree.baseTree, scratchDir: worktree.scratchDir });
}

/**
 * Brings the worktree's index from `commit`'s parent to `commit`: git's two-tree merge of the index alone rewrites the
 * entries that differ and keeps the stat data of the rest. One `sh` (the runner would wait 50 ms after a command that
 * prints nothing: ./git-pipe.ts). An index that no longer matches the parent gets the changed entries one by one.
 */
async function syncIndex(git: GitRunner, repo: GitRepo, commit: string): Promise<void> {
  const merged = await runGitScript(git, repo, ['read-tree'], 'git read-tree -m -i "$1^" "$1" </dev/null && echo synced', [commit]);
  if (merged.exitCode === 0) return;
  await syncEntries(git, repo, commit);
}

/** The entries `commit` changed against its parent, written into the index one by one (their stat data left for git to fill). */
async function syncEntries(git: GitRunner, repo: GitRepo, commit: string): Promise<void> {
  const raw = await git.run(repo, ['diff-tree', '-r', '-z', '--no-renames', '--no-commit-id', '--raw', commit]);
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
