// Brings each dependency task's branch into a fresh task worktree, so the agent starts from their
// commits. A conflict is reported with its paths and never left half-merged.
import { identityConfig, type Identity } from './commit-identity';
import { gitFailed, mergeConflict } from './git-errors';
import type { GitRepo, GitRunner } from './git-runner';

/** Merges `dependencyBranches` in order into the branch checked out in `worktree` (always a merge commit). */
export async function mergeDependencies(
  git: GitRunner,
  worktree: GitRepo,
  taskBranch: string,
  dependencyBranches: readonly string[],
  person: Identity,
): Promise<void> {
  // Nothing to merge: no need to ask git about the identity either.
  if (dependencyBranches.length === 0) return;
  const identity = await identityConfig(git, worktree, person);
  // A remembered resolution (rerere) could quietly change what the agent starts from.
  const config = [...identity, 'rerere.enabled=false'];
  for (const dependency of dependencyBranches) {
    const args = [
      'merge', '--no-ff', '--no-edit', '--no-verify-signatures', '--no-verify',
      '-m', `Merge dependency ${dependency} into ${taskBranch}`,
      `refs/heads/${dependency}`,
    ];
    const result = await git.exec(worktree, args, { config });
    if (result.exitCode === 0) continue;
    const conflicted = await git.run(worktree, ['diff', '--no-ext-diff', '--no-textconv', '--name-only', '--diff-filter=U', '-z']);
    await abortMergeIfAny(git, worktree);
    const paths = conflicted.split('\0').filter((path) => path !== '');
    if (paths.length > 0) throw mergeConflict(dependency, paths);
    throw gitFailed(args, result.exitCode, result.stderr || result.stdout);
  }
}

async function abortMergeIfAny(git: GitRunner, worktree: GitRepo): Promise<void> {
  const mergeHead = await git.exec(worktree, ['rev-parse', '--quiet', '--verify', 'MERGE_HEAD']);
  if (mergeHead.exitCode === 0) await git.run(worktree, ['merge', '--abort']);
}
