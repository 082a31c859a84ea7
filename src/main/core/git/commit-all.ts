// Stages everything in a worktree and commits it: the end of every agent turn, and the snapshot
// that keeps unfinished work before a worktree is retired.
import { identityConfig, type Identity } from './commit-identity';
import { gitFailed } from './git-errors';
import { headCommitFromFiles } from './head-file';
import type { GitRepo, GitRunner } from './git-runner';

/** Stages new, changed and deleted files and commits (even with nothing staged); returns the full sha. */
export async function stageAndCommit(git: GitRunner, worktree: GitRepo, message: string, identity: Identity): Promise<string> {
  await git.run(worktree, ['add', '--all']);
  const config = await identityConfig(git, worktree, identity);
  // The message goes through stdin, not argv: a prompt may hold anything, including text that
  // looks like an option. `verbatim` keeps its blank lines, spacing and '#' lines exactly.
  await git.run(worktree, ['commit', '--quiet', '--no-verify', '--allow-empty', '--cleanup=verbatim', '--file=-'], { input: message, config });
  return git.run(worktree, ['rev-parse', 'HEAD']);
}

/**
 * Like stageAndCommit, but commits nothing and returns undefined when nothing changed: a turn that did nothing.
 * Two git processes for a turn that changed files (stage, commit; the sha is read from git's files): every task's
 * turn ends here.
 */
export async function commitIfChanged(git: GitRunner, worktree: GitRepo, message: string, identity: Identity): Promise<string | undefined> {
  await git.run(worktree, ['add', '--all']);
  const config = await identityConfig(git, worktree, identity);
  // Without --allow-empty, git itself says whether anything is staged: exit 1 and no commit when nothing is.
  // --quiet: the summary git prints otherwise is a diff with its stat against the parent, which nobody reads
  // (1-2 ms of git's CPU per turn, measured with perf stat over a small repository).
  const commit = ['commit', '--quiet', '--no-verify', '--cleanup=verbatim', '--file=-'];
  const committed = await git.exec(worktree, commit, { input: message, config });
  if (committed.exitCode === 0) return (await headCommitFromFiles(worktree)) ?? git.run(worktree, ['rev-parse', 'HEAD']);
  // Exit 1 is also how other refusals end: only an index that matches HEAD means "nothing to commit".
  if (committed.exitCode === 1 && (await git.exec(worktree, ['diff', '--cached', '--quiet', '--no-ext-diff', '--no-textconv'])).exitCode === 0) return undefined;
  throw gitFailed(commit, committed.exitCode, committed.stderr || committed.stdout);
}

/** true when the worktree has changes or untracked (not ignored) files that a commit would keep. */
export async function hasUncommittedWork(git: GitRunner, worktree: GitRepo): Promise<boolean> {
  const status = await git.run(worktree, ['status', '--porcelain', '--untracked-files=normal', '--ignore-submodules=none']);
  return status.trim() !== '';
}
