// Stages everything in a worktree and commits it: the end of every agent turn, and the snapshot
// that keeps unfinished work before a worktree is retired.
import { identityFallbackConfig } from './commit-identity';
import type { GitRunner } from './git-runner';

/** Stages new, changed and deleted files and commits (even with nothing staged); returns the full sha. */
export async function stageAndCommit(git: GitRunner, worktreePath: string, message: string): Promise<string> {
  await git.run(worktreePath, ['add', '--all']);
  const identity = await identityFallbackConfig(git, worktreePath);
  // The message goes through stdin, not argv: a prompt may hold anything, including text that
  // looks like an option. `verbatim` keeps its blank lines, spacing and '#' lines exactly.
  await git.run(worktreePath, ['commit', '--allow-empty', '--cleanup=verbatim', '--file=-'], {
    input: message,
    config: identity,
  });
  return git.run(worktreePath, ['rev-parse', 'HEAD']);
}

/** true when the worktree has changes or untracked (not ignored) files that a commit would keep. */
export async function hasUncommittedWork(git: GitRunner, worktreePath: string): Promise<boolean> {
  const status = await git.run(worktreePath, ['status', '--porcelain', '--untracked-files=normal', '--ignore-submodules=none']);
  return status.trim() !== '';
}
