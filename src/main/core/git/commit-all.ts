// Stages everything in a worktree and commits it: the end of every agent turn, and the snapshot
// that keeps unfinished work before a worktree is retired.
import { identityConfig, type Identity } from './commit-identity';
import { gitFailed } from './git-errors';
import { headCommitFromFiles } from './head-file';
import { summaryFromCommitOutput } from './commit-summary';
import type { DiffSummary } from './task-diff';
import type { GitRepo, GitResult, GitRunner } from './git-runner';
import { ALL_BUT_LOCAL_FILES } from './vendor-local-files';

// simple-git waits 50 ms more after a command that printed nothing on stdout or stderr (its completion plugin, to let
// late output arrive): a turn's `add` and `commit` print (`--verbose`; no `--quiet`), which costs git a summary diff
// of 1-2 ms of CPU and saves the task 100 ms. Only an `add` with nothing to stage stays silent and waits.
// Vendor-local files (an agent's own settings and notes) are never staged: see vendor-local-files.ts.
const STAGE_ALL = ['add', '--all', '--verbose', ...ALL_BUT_LOCAL_FILES];

/** Stages new, changed and deleted files and commits (even with nothing staged); returns the full sha. */
export async function stageAndCommit(git: GitRunner, worktree: GitRepo, message: string, identity: Identity): Promise<string> {
  const config = await identityConfig(git, worktree, identity);
  // The message goes through stdin, not argv: a prompt may hold anything, including text that
  // looks like an option. `verbatim` keeps its blank lines, spacing and '#' lines exactly.
  const commit = ['commit', '--no-verify', '--allow-empty', '--cleanup=verbatim', '--file=-'];
  const committed = await git.exec(worktree, commit, { input: message, config, first: STAGE_ALL });
  if (committed.exitCode !== 0) throw failure(commit, committed);
  return git.run(worktree, ['rev-parse', 'HEAD']);
}

/** Told what a commit changed against its parent, when git's own output of the commit says it all (./commit-summary.ts). */
export type SeenSummary = (parent: string, head: string, summary: DiffSummary) => void;

/**
 * Like stageAndCommit, but commits nothing and returns undefined when nothing changed: a turn that did nothing.
 * One process started by the desk for a turn that changed files (stage and commit in one shell, see
 * GitCallOptions.first; the sha is read from git's files): every task's turn ends here.
 */
export async function commitIfChanged(git: GitRunner, worktree: GitRepo, message: string, identity: Identity, seen?: SeenSummary): Promise<string | undefined> {
  const config = await identityConfig(git, worktree, identity);
  // The commit's parent, for what git prints of the commit (below); read from files, so unknown in odd repositories.
  const parent = seen && await headCommitFromFiles(worktree);
  // Without --allow-empty, git itself says whether anything is staged: exit 1 and no commit when nothing is.
  const commit = ['commit', '--no-verify', '--cleanup=verbatim', '--file=-'];
  const committed = await git.exec(worktree, commit, { input: message, config, first: STAGE_ALL });
  if (committed.exitCode === 0) {
    const head = (await headCommitFromFiles(worktree)) ?? await git.run(worktree, ['rev-parse', 'HEAD']);
    // What the commit changed, as git printed it: the card's totals and the attention list's names without a `git diff`.
    const summary = parent === undefined ? undefined : summaryFromCommitOutput(committed.stdout, head);
    if (summary !== undefined && parent !== undefined) seen?.(parent, head, summary);
    return head;
  }
  // Exit 1 is also how other refusals end: only an index that matches HEAD means "nothing to commit".
  if (!committed.firstFailed && committed.exitCode === 1 && (await git.exec(worktree, ['diff', '--cached', '--quiet', '--no-ext-diff', '--no-textconv'])).exitCode === 0) return undefined;
  throw failure(commit, committed);
}

/** The error for a failed stage-and-commit, naming whichever of the two failed. */
function failure(commit: readonly string[], result: GitResult): Error {
  return gitFailed(result.firstFailed ? STAGE_ALL : commit, result.exitCode, result.stderr || result.stdout);
}

/** true when the worktree has changes or untracked (not ignored) files that a commit would keep (vendor-local files are not kept). */
export async function hasUncommittedWork(git: GitRunner, worktree: GitRepo): Promise<boolean> {
  const status = await git.run(worktree, ['status', '--porcelain', '--untracked-files=normal', '--ignore-submodules=none', ...ALL_BUT_LOCAL_FILES]);
  return status.trim() !== '';
}
