// Brings each dependency task's branch into a fresh task worktree, so the agent starts from their
// commits. A conflict is reported with its paths and never left half-merged.
import { identityFallbackConfig } from './commit-identity';
import { GitCommandError, MergeConflictError } from './git-errors';
import type { GitRunner } from './git-runner';

/** Merges `dependencyBranches` in order into the branch checked out at `worktreePath` (always a merge commit). */
export async function mergeDependencies(
  git: GitRunner,
  worktreePath: string,
  taskBranch: string,
  dependencyBranches: readonly string[],
): Promise<void> {
  const identity = await identityFallbackConfig(git, worktreePath);
  // A remembered resolution (rerere) could quietly change what the agent starts from.
  const config = [...identity, 'rerere.enabled=false'];
  for (const dependency of dependencyBranches) {
    const args = [
      'merge', '--no-ff', '--no-edit', '--no-verify-signatures',
      '-m', `Merge dependency ${dependency} into ${taskBranch}`,
      `refs/heads/${dependency}`,
    ];
    const result = await git.exec(worktreePath, args, { config });
    if (result.exitCode === 0) continue;
    const conflicted = await git.run(worktreePath, ['diff', '--name-only', '--diff-filter=U', '-z']);
    await abortMergeIfAny(git, worktreePath);
    const paths = conflicted.split('\0').filter((path) => path !== '');
    if (paths.length > 0) throw new MergeConflictError(dependency, paths);
    throw new GitCommandError(args, result.exitCode, result.stderr || result.stdout);
  }
}

async function abortMergeIfAny(git: GitRunner, worktreePath: string): Promise<void> {
  const mergeHead = await git.exec(worktreePath, ['rev-parse', '--quiet', '--verify', 'MERGE_HEAD']);
  if (mergeHead.exitCode === 0) await git.run(worktreePath, ['merge', '--abort']);
}
