// Retires a task's worktree and branch without losing anything: unfinished work is committed as a
// snapshot and the tips are kept under refs/desk/archive/ before anything is removed.
import { existsSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { archiveRefFor, branchNameFor, worktreeDirNameFor } from './branch-names';
import { hasUncommittedWork, stageAndCommit } from './commit-all';
import type { GitRunner } from './git-runner';
import { createRef, isAncestorCommit, resolveCommit } from './refs';
import { parseWorktreeList } from './worktree-list';

export interface RetireContext {
  git: GitRunner;
  repoRoot: string;
  worktreesDir: string;
  /** `worktreesDir` with symlinks resolved: the spelling `git worktree list` uses. */
  realWorktreesDir: string;
  now: () => Date;
}

export function snapshotMessage(taskId: string): string {
  return `Unfinished work of task ${taskId} (kept by Assignment Desk)`;
}

/** The caller must hold the repository mutex: this adds refs, removes a worktree and deletes a branch. */
export async function retireTask(context: RetireContext, taskId: string): Promise<{ archiveRef?: string }> {
  const { git, repoRoot } = context;
  const branch = branchNameFor(taskId);
  const dirName = worktreeDirNameFor(taskId);
  const worktreePath = join(context.worktreesDir, dirName);
  const spellings = new Set([worktreePath, join(context.realWorktreesDir, dirName)]);

  // A worktree directory deleted by hand leaves its registration behind; prune lets go of it (and
  // of the branch it held) so the steps below see the truth.
  await git.run(repoRoot, ['worktree', 'prune']);
  const listed = parseWorktreeList(await git.run(repoRoot, ['worktree', 'list', '--porcelain']));
  const worktree = listed.find((entry) => spellings.has(entry.path));

  let worktreeHead: string | undefined;
  if (worktree) {
    if (await hasUncommittedWork(git, worktree.path)) await stageAndCommit(git, worktree.path, snapshotMessage(taskId));
    worktreeHead = await resolveCommit(git, worktree.path, 'HEAD');
  }
  const branchTip = await resolveCommit(git, repoRoot, `refs/heads/${branch}`);
  const archiveRef = await archiveTips(context, taskId, branchTip, worktreeHead);

  // Clean now (the snapshot took everything git would keep), so no --force is needed; ignored
  // files such as build output go with the directory.
  if (worktree) await git.run(repoRoot, ['worktree', 'remove', worktree.path]);
  if (branchTip) await git.run(repoRoot, ['branch', '--delete', '--force', branch]);
  await setStrayDirectoryAside(worktreePath, context.now());
  return archiveRef ? { archiveRef } : {};
}

async function archiveTips(
  context: RetireContext,
  taskId: string,
  branchTip: string | undefined,
  worktreeHead: string | undefined,
): Promise<string | undefined> {
  const { git, repoRoot } = context;
  const ref = archiveRefFor(taskId, context.now());
  const branchRef = branchTip ? await createRef(git, repoRoot, ref, branchTip) : undefined;
  // Someone may have detached HEAD in the worktree and committed there; keep those commits too.
  const headIsKept = !worktreeHead || (branchTip !== undefined && await isAncestorCommit(git, repoRoot, worktreeHead, branchTip));
  const headRef = headIsKept || !worktreeHead ? undefined : await createRef(git, repoRoot, `${ref}-head`, worktreeHead);
  return branchRef ?? headRef;
}

// A directory at the task's path that git no longer knows as a worktree (its .git file deleted, a
// crash mid-add) may still hold someone's files: move it aside instead of deleting it.
async function setStrayDirectoryAside(path: string, at: Date): Promise<void> {
  if (!existsSync(path)) return;
  await rename(path, `${path}.stray-${at.toISOString().replace(/:/g, '-')}`);
}
