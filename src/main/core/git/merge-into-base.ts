// Approving a task merges its branch into the base branch, without ever touching a person's uncommitted work.
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { identityFallbackConfig } from './commit-identity';
import { GitCommandError, MergeConflictError } from './git-errors';
import type { GitRunner } from './git-runner';
import { isAncestorCommit, resolveCommit } from './refs';
import { parseWorktreeList } from './worktree-list';

/** The base branch is checked out with uncommitted changes, so the desk will not merge into it. */
export class DirtyCheckoutError extends Error {
  readonly code = 'dirty_checkout';
}

export interface MergeResult { commit: string; alreadyMerged: boolean }

/**
 * Merges `taskBranch` into `baseBranch` with a merge commit. Where the base is checked out (the
 * person's checkout, usually), the merge runs there if it is clean, updating their files; else it runs
 * in a temporary worktree and only the branch ref moves.
 */
export async function mergeIntoBase(
  git: GitRunner,
  options: { repoRoot: string; scratchDir: string; baseBranch: string; taskBranch: string; message: string },
): Promise<MergeResult> {
  const { repoRoot, baseBranch, taskBranch } = options;
  const baseTip = await resolveCommit(git, repoRoot, `refs/heads/${baseBranch}`);
  const taskTip = await resolveCommit(git, repoRoot, `refs/heads/${taskBranch}`);
  if (!baseTip || !taskTip) throw new GitCommandError(['merge'], undefined, `branch ${!baseTip ? baseBranch : taskBranch} does not exist`);
  if (await isAncestorCommit(git, repoRoot, taskTip, baseTip)) return { commit: baseTip, alreadyMerged: true };

  const worktrees = parseWorktreeList(await git.run(repoRoot, ['worktree', 'list', '--porcelain']));
  const checkout = worktrees.find((w) => w.branch === `refs/heads/${baseBranch}`);
  if (checkout) {
    const status = await git.run(checkout.path, ['status', '--porcelain', '--untracked-files=no']);
    if (status.trim() !== '') {
      throw new DirtyCheckoutError(`${baseBranch} is checked out in ${checkout.path} with uncommitted changes; commit or stash them, then approve again.`);
    }
    await merge(git, checkout.path, taskBranch, options.message);
    return { commit: await git.run(checkout.path, ['rev-parse', 'HEAD']), alreadyMerged: false };
  }

  const scratch = await mkdtemp(join(options.scratchDir, 'approve-'));
  try {
    await git.run(repoRoot, ['worktree', 'add', '--detach', scratch, baseTip]);
    await merge(git, scratch, taskBranch, options.message);
    const merged = await git.run(scratch, ['rev-parse', 'HEAD']);
    // Moves the branch only if nobody moved it meanwhile.
    await git.run(repoRoot, ['update-ref', `refs/heads/${baseBranch}`, merged, baseTip]);
    return { commit: merged, alreadyMerged: false };
  } finally {
    await git.exec(repoRoot, ['worktree', 'remove', '--force', scratch]).catch(() => undefined);
    await rm(scratch, { recursive: true, force: true });
  }
}

async function merge(git: GitRunner, cwd: string, taskBranch: string, message: string): Promise<void> {
  const config = [...await identityFallbackConfig(git, cwd), 'rerere.enabled=false'];
  const args = ['merge', '--no-ff', '--no-edit', '-m', message, `refs/heads/${taskBranch}`];
  const result = await git.exec(cwd, args, { config });
  if (result.exitCode === 0) return;
  const conflicted = (await git.run(cwd, ['diff', '--name-only', '--diff-filter=U', '-z'])).split('\0').filter(Boolean);
  const mergeHead = await git.exec(cwd, ['rev-parse', '--quiet', '--verify', 'MERGE_HEAD']);
  if (mergeHead.exitCode === 0) await git.run(cwd, ['merge', '--abort']);
  if (conflicted.length > 0) throw new MergeConflictError(taskBranch, conflicted);
  throw new GitCommandError(args, result.exitCode, result.stderr || result.stdout);
}
