// The git side of running a task: a worktree per task outside the person's checkout, dependency
// branches merged in, commits at the end of each turn, and retirement that never loses work.
import { mkdir, realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { branchNameFor, worktreeDirNameFor } from './branch-names';
import { stageAndCommit } from './commit-all';
import { EmptyRepositoryError, GitCommandError, UnknownBranchError } from './git-errors';
import { createGitRunner } from './git-runner';
import { mergeDependencies } from './merge-dependencies';
import { createMutex } from './repo-mutex';
import { isAncestorCommit, resolveCommit } from './refs';
import { mergeIntoBase, type MergeResult } from './merge-into-base';
import { retireTask } from './retire-task';
import { taskDiff } from './task-diff';
import type { TaskDiff } from '../../../shared/review';
import type { RetireContext } from './retire-task';

export interface GitService {
  /** The repository's checked-out branch (the default base branch). */
  currentBranch(): Promise<string>;
  /** Throws UnknownBranchError or EmptyRepositoryError when a task could not start from `branch`. */
  assertUsableBase(branch: string): Promise<void>;
  /**
   * A fresh worktree for the task's branch: from `baseBranch`, then each dependency branch merged
   * in order (--no-ff, no editor). Any previous worktree/branch of the same task is retired first.
   * On a merge conflict the merge is aborted, the half-made worktree retired, and
   * MergeConflictError thrown. `baseCommit` is the base branch's commit the task started from.
   */
  prepareWorktree(request: { taskId: string; baseBranch: string; dependencyBranches: string[] }): Promise<{ path: string; branch: string; baseCommit: string }>;
  /** Stage everything (including deletions and new files) and commit, even when nothing changed. Returns the full sha. */
  commitAll(worktreePath: string, message: string): Promise<string>;
  /**
   * Retire a task's worktree and branch without losing anything: uncommitted work is committed as
   * a snapshot, the tip is kept under `refs/desk/archive/<dir>/<UTC time>`, then the worktree is
   * removed and the branch deleted. Returns the archive ref, or nothing when there was nothing.
   */
  retire(taskId: string): Promise<{ archiveRef?: string }>;
  /** true when `ancestor` is an ancestor of `descendant` (commits or refs). */
  isAncestor(ancestor: string, descendant: string): Promise<boolean>;
  branchFor(taskId: string): string;
  worktreePathFor(taskId: string): string;
  /** The files `head` changed against `base`, with texts to show. */
  diff(base: string, head: string): Promise<TaskDiff>;
  /** Merges the task's branch into `baseBranch` (approval); throws DirtyCheckoutError or MergeConflictError. */
  mergeIntoBase(request: { taskId: string; baseBranch: string; message: string }): Promise<MergeResult>;
}

export interface GitServiceOptions {
  /** Top level of the person's repository (see openRepository). */
  repoRoot: string;
  /** Where task worktrees live, outside the repository so its `git status` stays clean. */
  worktreesDir: string;
  /** An empty directory used as core.hooksPath; created when missing. */
  hooksDir: string;
  /** Clock for archive ref names; tests may pin it. */
  now?: () => Date;
}

export function createGitService(options: GitServiceOptions): GitService {
  const repoRoot = resolve(options.repoRoot);
  const worktreesDir = resolve(options.worktreesDir);
  const hooksDir = resolve(options.hooksDir);
  const now = options.now ?? (() => new Date());
  const git = createGitRunner({ hooksDir });
  const repoLock = createMutex();

  let setup: Promise<RetireContext> | undefined;
  const ready = (): Promise<RetireContext> => {
    setup ??= (async () => {
      await mkdir(hooksDir, { recursive: true });
      await mkdir(worktreesDir, { recursive: true });
      return { git, repoRoot, worktreesDir, realWorktreesDir: await realpath(worktreesDir), now };
    })().catch((error: unknown) => {
      setup = undefined; // let a later call retry, e.g. once the disk has room again
      throw error;
    });
    return setup;
  };

  const worktreePathFor = (taskId: string): string => join(worktreesDir, worktreeDirNameFor(taskId));

  const usableBaseCommit = async (branch: string): Promise<string> => {
    const commit = await resolveCommit(git, repoRoot, `refs/heads/${branch}`);
    if (commit) return commit;
    // An unborn branch (no commits yet) is still what HEAD names in a fresh repository.
    const head = await git.exec(repoRoot, ['symbolic-ref', '--quiet', 'HEAD']);
    if (head.exitCode === 0 && head.stdout.trim() === `refs/heads/${branch}`) throw new EmptyRepositoryError(branch);
    throw new UnknownBranchError(branch);
  };

  const retire = async (taskId: string): Promise<{ archiveRef?: string }> => {
    const context = await ready();
    return repoLock.run(() => retireTask(context, taskId));
  };

  return {
    async currentBranch() {
      const head = await git.exec(repoRoot, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
      if (head.exitCode !== 0) throw new GitCommandError(['symbolic-ref', 'HEAD'], head.exitCode, head.stderr || 'HEAD is detached: check out a branch to use as the base');
      return head.stdout.trim();
    },

    async assertUsableBase(branch) {
      await usableBaseCommit(branch);
    },

    async prepareWorktree({ taskId, baseBranch, dependencyBranches }) {
      const context = await ready();
      const baseCommit = await usableBaseCommit(baseBranch);
      for (const dependency of dependencyBranches) {
        if (!(await resolveCommit(git, repoRoot, `refs/heads/${dependency}`))) throw new UnknownBranchError(dependency);
      }
      const branch = branchNameFor(taskId);
      const path = worktreePathFor(taskId);
      await repoLock.run(async () => {
        await retireTask(context, taskId);
        // Start from the commit resolved above, so every dependency merges onto the same base.
        await git.run(repoRoot, ['worktree', 'add', '-b', branch, path, baseCommit]);
      });
      try {
        // Merges touch only this worktree's index and branch, so they run outside the lock.
        await mergeDependencies(git, path, branch, dependencyBranches);
      } catch (error) {
        // The merge's own error is the one worth reporting; should this cleanup fail too, the
        // next prepare or retire of the task starts by retiring again.
        await retire(taskId).catch(() => undefined);
        throw error;
      }
      return { path, branch, baseCommit };
    },

    async commitAll(worktreePath, message) {
      await ready();
      return stageAndCommit(git, worktreePath, message);
    },

    retire,

    isAncestor(ancestor, descendant) {
      return isAncestorCommit(git, repoRoot, ancestor, descendant);
    },

    branchFor: branchNameFor,
    worktreePathFor,

    diff: (base, head) => taskDiff(git, repoRoot, base, head),

    async mergeIntoBase({ taskId, baseBranch, message }) {
      const context = await ready();
      return repoLock.run(() => mergeIntoBase(git, { repoRoot, scratchDir: context.worktreesDir, baseBranch, taskBranch: branchNameFor(taskId), message }));
    },
  };
}
