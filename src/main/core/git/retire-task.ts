// Retires a task's worktree and branch without losing anything: unfinished work is committed as a
// snapshot and the tips are kept under refs/desk/archive/ before anything is removed. Only a branch
// this desk made and recorded is ever deleted.
import { existsSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { archiveRefFor, worktreeDirNameFor } from './branch-names';
import { hasUncommittedWork, stageAndCommit } from './commit-all';
import { discardLocalFiles } from './vendor-local-files';
import { gitFailed } from './git-errors';
import type { Identity } from './commit-identity';
import type { GitRepo, GitRunner } from './git-runner';
import { createRef, isAncestorCommit, resolveCommit } from './refs';
import { checkoutOf, type Repository } from './repository';
import { assertWorktreeIntact, linkedGitDir } from './worktree-guard';
import { parseWorktreeList } from './worktree-list';
import type { WorktreeRecords } from './worktree-records';
import type { TaskLayers } from '../sandbox/task-layers';
import { commitLayered, layerAccess } from './layered-commit';
import { rememberedOnPath } from '../host/find-on-path';

export interface RetireContext {
  git: GitRunner;
  repository: Repository;
  deskId: string;
  records: WorktreeRecords;
  identity: Identity;
  worktreesDir: string;
  /** `worktreesDir` with symlinks resolved: the spelling `git worktree list` uses. */
  realWorktreesDir: string;
  now: () => Date;
  /** Worktrees that are layers over a snapshot (../sandbox/task-layers.ts); a scratch dir for their commit. */
  layers?: { open: TaskLayers['open']; has: TaskLayers['has']; remove: TaskLayers['remove']; scratchDir: string };
}

export function snapshotMessage(taskId: string): string {
  return `Unfinished work of task ${taskId} (kept by Assignment Desk)`;
}

/** The caller must hold the repository mutex: this adds refs, removes a worktree and deletes a branch. */
export async function retireTask(context: RetireContext, taskId: string): Promise<{ archiveRef?: string }> {
  const { git, repository } = context;
  const repo = checkoutOf(repository);
  const record = await context.records.get(taskId);
  const dirName = worktreeDirNameFor(taskId);
  const worktreePath = join(context.worktreesDir, dirName);
  const spellings = new Set([worktreePath, join(context.realWorktreesDir, dirName)]);

  // A worktree directory deleted by hand leaves its registration behind; prune lets go of it (and
  // of the branch it held) so the steps below see the truth.
  await git.run(repo, ['worktree', 'prune']);
  const listed = parseWorktreeList(await git.run(repo, ['worktree', 'list', '--porcelain']));
  const worktree = listed.find((entry) => spellings.has(entry.path));

  // A layer is named by the worktree's path as the desk spelled it when it made it (../sandbox/task-layers.ts).
  const layerPath = await firstLayered(context, [record?.path, worktreePath, worktree?.path]);

  // A worktree whose link to the repository was changed is not touched with git: its files are set
  // aside whole below, and only the recorded branch is archived.
  let target: GitRepo | undefined;
  let worktreeHead: string | undefined;
  if (worktree) {
    const gitDir = record?.gitDir ?? await linkedGitDir(worktree.path, repository.commonDir);
    const intact = gitDir !== undefined
      && await assertWorktreeIntact({ path: worktree.path, gitDir, commonDir: repository.commonDir }).then(() => true, () => false);
    if (intact) {
      target = { gitDir, workTree: worktree.path, commonDir: repository.commonDir };
      const layer = layerPath === undefined ? undefined : await context.layers?.open(layerPath);
      if (layer && context.layers) {
        const baseTree = await git.run(target, ['rev-parse', '--verify', `${layer.base}^{tree}`]);
        const access = layerAccess(git, layer, layerPath ?? worktree.path, rememberedOnPath());
        await commitLayered(git, { repo: target, ...access, baseTree, scratchDir: context.layers.scratchDir }, snapshotMessage(taskId), context.identity);
      } else if (await hasUncommittedWork(git, target)) {
        await stageAndCommit(git, target, snapshotMessage(taskId), context.identity);
      }
      worktreeHead = await resolveCommit(git, target, 'HEAD');
    }
  }
  const branch = record?.branch;
  const branchTip = branch ? await resolveCommit(git, repo, `refs/heads/${branch}`) : undefined;
  const archiveRef = await archiveTips(context, taskId, branchTip, worktreeHead);

  // Clean now (the snapshot took everything git would keep), so no --force is needed; ignored
  // files such as build output go with the directory. A layer's directory holds only its `.git` link: its files, the
  // snapshot's and the layer's, go with the layer (committed above).
  // A layer whose worktree could not be committed (its link was changed) stays on disk: nothing of it is deleted.
  const layered = layerPath !== undefined;
  if (layerPath !== undefined && target) await context.layers?.remove(layerPath);
  if (worktree && target) await (layered ? git.run(repo, ['worktree', 'remove', '--force', worktree.path]) : removeWorktree(git, repo, { ...target, workTree: worktree.path }));
  await setStrayDirectoryAside(worktreePath, context.now());
  if (worktree && !target) await git.run(repo, ['worktree', 'prune']);
  if (branch && branchTip) await git.run(repo, ['branch', '--delete', '--force', '--end-of-options', branch]);
  if (record) await context.records.remove(taskId);
  return archiveRef ? { archiveRef } : {};
}

/** The first of `paths` that is a layer's worktree. */
async function firstLayered(context: RetireContext, paths: readonly (string | undefined)[]): Promise<string | undefined> {
  for (const path of paths) {
    if (path !== undefined && await context.layers?.has(path) === true) return path;
  }
  return undefined;
}

async function archiveTips(
  context: RetireContext,
  taskId: string,
  branchTip: string | undefined,
  worktreeHead: string | undefined,
): Promise<string | undefined> {
  const { git } = context;
  const repo = checkoutOf(context.repository);
  const ref = archiveRefFor(context.deskId, taskId, context.now());
  const branchRef = branchTip ? await createRef(git, repo, ref, branchTip) : undefined;
  // Someone may have detached HEAD in the worktree and committed there; keep those commits too.
  const headIsKept = !worktreeHead || (branchTip !== undefined && await isAncestorCommit(git, repo, worktreeHead, branchTip));
  const headRef = headIsKept || !worktreeHead ? undefined : await createRef(git, repo, `${ref}-head`, worktreeHead);
  return branchRef ?? headRef;
}

// A directory at the task's path that git no longer knows as a worktree (its .git file deleted or
// changed, a crash mid-add) may still hold someone's files: move it aside instead of deleting it.
async function setStrayDirectoryAside(path: string, at: Date): Promise<void> {
  if (!existsSync(path)) return;
  await rename(path, `${path}.stray-${at.toISOString().replace(/:/g, '-')}`);
}

/**
 * Removes a worktree the snapshot left clean. Vendor-local files the agent left are never committed (so the snapshot
 * left them), and git refuses to remove a worktree holding them: then they go with it (one the base tracks is put back
 * first) and the removal is tried again. A worktree without them costs one git process, as before.
 */
async function removeWorktree(git: GitRunner, repo: GitRepo, target: GitRepo & { workTree: string }): Promise<void> {
  const args = ['worktree', 'remove', target.workTree];
  const removed = await git.exec(repo, args);
  if (removed.exitCode === 0) return;
  if (!(await discardLocalFiles(git, target))) throw gitFailed(args, removed.exitCode, removed.stderr || removed.stdout);
  await git.run(repo, args);
}
