// Stages everything in a worktree and commits it: the end of every agent turn, and the snapshot
// that keeps unfinished work before a worktree is retired.
import { identityConfig, type Identity } from './commit-identity';
import type { GitRepo, GitRunner } from './git-runner';

/** Stages new, changed and deleted files and commits (even with nothing staged); returns the full sha. */
export async function stageAndCommit(git: GitRunner, worktree: GitRepo, message: string, identity: Identity): Promise<string> {
  await git.run(worktree, ['add', '--all']);
  const config = await identityConfig(git, worktree, identity);
  // The message goes through stdin, not argv: a prompt may hold anything, including text that
  // looks like an option. `verbatim` keeps its blank lines, spacing and '#' lines exactly.
  await git.run(worktree, ['commit', '--no-verify', '--allow-empty', '--cleanup=verbatim', '--file=-'], { input: message, config });
  return git.run(worktree, ['rev-parse', 'HEAD']);
}

/** Like stageAndCommit, but commits nothing and returns undefined when no file changed: a turn that did nothing. */
export async function commitIfChanged(git: GitRunner, worktree: GitRepo, message: string, identity: Identity): Promise<string | undefined> {
  if (!(await hasUncommittedWork(git, worktree))) return undefined;
  return stageAndCommit(git, worktree, message, identity);
}

/** true when the worktree has changes or untracked (not ignored) files that a commit would keep. */
export async function hasUncommittedWork(git: GitRunner, worktree: GitRepo): Promise<boolean> {
  const status = await git.run(worktree, ['status', '--porcelain', '--untracked-files=normal', '--ignore-submodules=none']);
  return status.trim() !== '';
}
