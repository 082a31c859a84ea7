// Commits what a task's overlay layer holds onto the task's branch: the tree from ./layer-tree.ts, a commit on the
// branch's head, the branch moved only if nobody moved it meanwhile. The layer-backed counterpart of ./commit-all.ts.
import { DeskError } from '../../../shared/desk-error';
import { identityConfig, type Identity } from './commit-identity';
import { gitFailed } from './git-errors';
import { runGitScript } from './git-pipe';
import { buildLayerTree, type LayerTreeRequest } from './layer-tree';
import { createObjectReader, type ObjectReader } from './object-reader';
import { readPlainSync } from './plain-file';

export interface LayerCommitRequest extends LayerTreeRequest {
  /** The task's branch as a full ref name (`refs/heads/…`): the commit's parent is its head, and it moves to the commit. */
  ref: string;
  /** The whole message, kept verbatim. */
  message: string;
  identity: Identity;
}

/** The branch's head commit and its tree, and the layer's tree, read through one object reader. */
interface Compared { head: string; headTree: string; tree: string }

/** Commits the layer when its tree differs from the branch head's; returns the new commit, undefined when nothing changed. */
export async function commitLayer(request: LayerCommitRequest): Promise<string | undefined> {
  const { head, headTree, tree } = await compareWithHead(request, request.ref);
  if (tree === headTree) return undefined;
  return commitOnto(request, tree, head);
}

/** Commits the layer even when nothing changed (an empty commit then): the snapshot kept before a task is retired. */
export async function commitLayerAlways(request: LayerCommitRequest): Promise<string> {
  const { head, tree } = await compareWithHead(request, request.ref);
  return commitOnto(request, tree, head);
}

/** Whether the layer holds anything a commit would keep: its tree differs from the branch head's (a dirty check). */
export async function layerChanged(request: LayerTreeRequest & { ref: string }): Promise<boolean> {
  const { headTree, tree } = await compareWithHead(request, request.ref);
  return tree !== headTree;
}

async function compareWithHead(request: LayerTreeRequest, ref: string): Promise<Compared> {
  if (!/^refs\/[^\0\n\\ ~^:?*[]+$/.test(ref) || ref.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    throw new DeskError('invalid', 'invalid_ref', `${JSON.stringify(ref)} is not a full branch name; pass the task's branch as refs/heads/<name>`, { ref });
  }
  const reader = createObjectReader(request.git, request.repo, request.known);
  try {
    // Asked first, so the head and the base trees come from one process.
    const [head, built] = await Promise.all([headOf(reader, request.repo, ref), buildLayerTree(request, reader)]);
    return { ...head, tree: built.tree };
  } finally {
    await reader.close();
  }
}

async function headOf(reader: ObjectReader, repo: LayerTreeRequest['repo'], ref: string): Promise<{ head: string; headTree: string }> {
  // A branch the desk moves is a file of its own (update-ref writes it whole, by rename): read here, its commit may be
  // known already. A packed or otherwise stored one is git's to resolve.
  const loose = readPlainSync(`${repo.commonDir ?? repo.gitDir}/${ref}`, 256);
  const tip = loose === 'missing' || loose === 'odd' ? undefined : /^([0-9a-f]{40}|[0-9a-f]{64})\n?$/.exec(loose)?.[1];
  const commit = await reader.read(tip ?? ref);
  if (commit?.type !== 'commit') throw new DeskError('not_found', 'unknown_branch', `There is no branch ${ref} to commit the layer onto; make the task's branch first`, { ref });
  const tree = /^tree ([0-9a-f]+)\n/.exec(commit.body.toString('latin1'))?.[1];
  if (tree === undefined) throw new Error(`the commit ${commit.sha} at ${ref} names no tree`);
  return { head: commit.sha, headTree: tree };
}

const BRANCH_MOVED = 3;
/**
 * $1 tree, $2 parent, $3 reflog message, $4 ref. The message is the script's stdin, which commit-tree reads; update-ref
 * moves the ref only if it still names the parent. One line: a spare process reads a one-line launch itself, the quicker
 * way (../host/spare-processes.ts).
 */
const COMMIT_AND_MOVE = [
  'c=$(git commit-tree "$1" -p "$2") || exit $?',
  `git update-ref -m "$3" "$4" "$c" "$2" </dev/null || exit ${BRANCH_MOVED}`,
  'printf "%s\\n" "$c"',
].join('; ');

/** A commit of `tree` on `parent`, and the branch moved from `parent` to it (compare-and-swap). */
async function commitOnto(request: LayerCommitRequest, tree: string, parent: string): Promise<string> {
  const { git, repo } = request;
  const gitDirOnly = { gitDir: repo.gitDir, ...(repo.commonDir !== undefined && { commonDir: repo.commonDir }) };
  const config = await identityConfig(git, gitDirOnly, request.identity);
  // The message goes through stdin: a prompt may hold anything, including text that looks like an option.
  // One process of the desk's for both commands (see runGitScript).
  const done = await runGitScript(git, gitDirOnly, ['commit-tree'], COMMIT_AND_MOVE, [tree, parent, 'commit (desk layer)', request.ref], { input: request.message, config });
  if (done.exitCode === BRANCH_MOVED) {
    throw new DeskError('conflict', 'branch_moved', `The branch ${request.ref} moved while the task's changes were committed (it was at ${parent}); it was left where it is, try again: ${done.stderr.trim()}`, { ref: request.ref });
  }
  if (done.exitCode !== 0) throw gitFailed(['commit-tree', tree, '-p', parent], done.exitCode, done.stderr);
  return done.stdout.trim();
}

