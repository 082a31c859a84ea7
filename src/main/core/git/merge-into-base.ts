// Approving a task merges its branch into the base branch, without ever touching a person's uncommitted work.
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { identityConfig, type Identity } from './commit-identity';
import { baseConflict, dirtyCheckout, gitFailed } from './git-errors';
import type { GitRepo, GitRunner } from './git-runner';
import { isAncestorCommit, resolveCommit } from './refs';
import { checkoutOf, type Repository } from './repository';
import { linkedGitDir } from './worktree-guard';
import { parseWorktreeList } from './worktree-list';

/** The base branch is checked out with uncommitted changes, so the desk will not merge into it. */

export interface MergeResult { commit: string; alreadyMerged: boolean }

/**
 * Merges `taskBranch` into `baseBranch` with a merge commit. Where the base is checked out (the
 * person's checkout, usually), the merge runs there if it is clean, updating their files; else it runs
 * in a temporary worktree and only the branch ref moves.
 */
export async function mergeIntoBase(
  git: GitRunner,
  options: { repository: Repository; scratchDir: string; baseBranch: string; taskBranch: string; message: string; identity: Identity },
): Promise<MergeResult> {
  const { repository, baseBranch, taskBranch } = options;
  const repoRoot = checkoutOf(repository);
  const baseTip = await resolveCommit(git, repoRoot, `refs/heads/${baseBranch}`);
  const taskTip = await resolveCommit(git, repoRoot, `refs/heads/${taskBranch}`);
  if (!baseTip || !taskTip) throw gitFailed(['merge'], undefined, `branch ${!baseTip ? baseBranch : taskBranch} does not exist`);
  if (await isAncestorCommit(git, repoRoot, taskTip, baseTip)) return { commit: baseTip, alreadyMerged: true };

  const worktrees = parseWorktreeList(await git.run(repoRoot, ['worktree', 'list', '--porcelain']));
  const checkout = worktrees.find((w) => w.branch === `refs/heads/${baseBranch}`);
  if (checkout) {
    const target = await checkoutNamed(repository, checkout.path);
    const status = await git.run(target, ['status', '--porcelain', '--untracked-files=no']);
    if (status.trim() !== '') {
      throw dirtyCheckout(`${baseBranch} is checked out in ${checkout.path} with uncommitted changes; commit or stash them, then approve again.`);
    }
    await merge(git, target, baseBranch, taskBranch, options.message, options.identity);
    return { commit: await git.run(target, ['rev-parse', 'HEAD']), alreadyMerged: false };
  }

  const scratch = await mkdtemp(join(options.scratchDir, 'approve-'));
  try {
    await git.run(repoRoot, ['worktree', 'add', '--detach', scratch, baseTip]);
    const target = await checkoutNamed(repository, scratch);
    await merge(git, target, baseBranch, taskBranch, options.message, options.identity);
    const merged = await git.run(target, ['rev-parse', 'HEAD']);
    // Moves the branch only if nobody moved it meanwhile.
    await git.run(repoRoot, ['update-ref', `refs/heads/${baseBranch}`, merged, baseTip]);
    return { commit: merged, alreadyMerged: false };
  } finally {
    await git.exec(repoRoot, ['worktree', 'remove', '--force', scratch]).catch(() => undefined);
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The person's checkout, or one of their linked worktrees whose git dir checks out both ways. */
async function checkoutNamed(repository: Repository, path: string): Promise<GitRepo> {
  if (path === repository.root) return checkoutOf(repository);
  const gitDir = await linkedGitDir(path, repository.commonDir);
  if (!gitDir) throw gitFailed(['merge'], undefined, `the worktree ${path} does not link back to this repository; the desk will not merge there`);
  return { gitDir, workTree: path, commonDir: repository.commonDir };
}

async function merge(git: GitRunner, checkout: GitRepo, baseBranch: string, taskBranch: string, message: string, identity: Identity): Promise<void> {
  const config = [...await identityConfig(git, checkout, identity), 'rerere.enabled=false'];
  const args = ['merge', '--no-ff', '--no-edit', '--no-verify', '-m', message, `refs/heads/${taskBranch}`];
  const result = await git.exec(checkout, args, { config });
  if (result.exitCode === 0) return;
  const conflicted = (await git.run(checkout, ['diff', '--no-ext-diff', '--no-textconv', '--name-only', '--diff-filter=U', '-z'])).split('\0').filter(Boolean);
  const mergeHead = await git.exec(checkout, ['rev-parse', '--quiet', '--verify', 'MERGE_HEAD']);
  if (mergeHead.exitCode === 0) await git.run(checkout, ['merge', '--abort']);
  if (conflicted.length > 0) throw baseConflict(baseBranch, taskBranch, conflicted);
  throw gitFailed(args, result.exitCode, result.stderr || result.stdout);
}
