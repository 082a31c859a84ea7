// Keeps a task's branch up to date with its base branch, in the task's own worktree: how far apart they are, a
// merge that may stop on conflicts (left in the worktree, markers and all, for the agent or the person to resolve),
// and a rebase that is undone whole when it stops, so nothing of the task's work is ever lost.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { identityConfig, type Identity } from './commit-identity';
import { stageAndCommit } from './commit-all';
import { ALL_BUT_LOCAL_FILES } from './vendor-local-files';
import { gitFailed, updateRefused } from './git-errors';
import type { GitRepo, GitRunner } from './git-runner';
import { resolveCommit } from './refs';

export type UpdateStrategy = 'merge' | 'rebase';

/** What an update did. `conflicted`: a merge waits in the worktree; `undone`: a rebase stopped and was rolled back. */
export type BaseUpdateOutcome =
  | { outcome: 'up-to-date'; baseCommit: string }
  | { outcome: 'updated'; baseCommit: string; commit: string }
  | { outcome: 'conflicted'; baseCommit: string; files: string[] }
  | { outcome: 'undone'; baseCommit: string; files: string[] };

/** Commits on `baseBranch` that `branch` lacks (`behind`), and commits of `branch` the base lacks (`ahead`). */
export async function compareWithBase(git: GitRunner, repo: GitRepo, branch: string, baseBranch: string): Promise<{ behind: number; ahead: number }> {
  const args = ['rev-list', '--left-right', '--count', `refs/heads/${baseBranch}...refs/heads/${branch}`, '--'];
  const [behind = 0, ahead = 0] = (await git.run(repo, args)).trim().split(/\s+/).map(Number);
  return { behind, ahead };
}

/** The paths git still counts as unmerged in `worktree`. */
export async function unmergedPaths(git: GitRunner, worktree: GitRepo): Promise<string[]> {
  const listed = await git.run(worktree, ['diff', '--no-ext-diff', '--no-textconv', '--name-only', '--diff-filter=U', '-z']);
  return listed.split('\0').filter((path) => path !== '');
}

/** true while a merge waits to be committed in `worktree`. */
export async function mergeInProgress(git: GitRunner, worktree: GitRepo): Promise<boolean> {
  return (await git.exec(worktree, ['rev-parse', '--quiet', '--verify', 'MERGE_HEAD'])).exitCode === 0;
}

/**
 * Brings `baseBranch`'s tip into the branch checked out in `worktree`. Refuses a worktree with uncommitted changes
 * or a merge already waiting. A merge that conflicts stays in progress; a rebase that conflicts is aborted, which
 * puts the branch and files back exactly as they were.
 */
export async function updateFromBase(
  git: GitRunner,
  worktree: GitRepo,
  request: { branch: string; baseBranch: string; strategy: UpdateStrategy; identity: Identity },
): Promise<BaseUpdateOutcome> {
  const { baseBranch, strategy } = request;
  const baseCommit = await resolveCommit(git, worktree, `refs/heads/${baseBranch}`);
  if (!baseCommit) throw gitFailed(['merge'], undefined, `branch ${baseBranch} does not exist`);
  if (await mergeInProgress(git, worktree)) throw updateRefused(`An update from ${baseBranch} is already waiting for its conflicts to be resolved.`);
  // An agent's vendor-local files are never committed: left in the worktree, they are not changes that hold an update back.
  const status = await git.run(worktree, ['status', '--porcelain', '--untracked-files=normal', ...ALL_BUT_LOCAL_FILES]);
  if (status.trim() !== '') throw updateRefused(`The task's worktree has uncommitted changes; commit or discard them before updating from ${baseBranch}.`);
  const { behind } = await compareWithBase(git, worktree, request.branch, baseBranch);
  if (behind === 0) return { outcome: 'up-to-date', baseCommit };

  // rerere could replay a resolution nobody reviewed for this task.
  const config = [...await identityConfig(git, worktree, request.identity), 'rerere.enabled=false'];
  const args = strategy === 'merge'
    ? ['merge', '--no-ff', '--no-edit', '--no-verify', '-m', `Update from ${baseBranch}`, baseCommit]
    : ['rebase', '--no-autostash', '--no-update-refs', baseCommit];
  const result = await git.exec(worktree, args, { config });
  if (result.exitCode === 0) return { outcome: 'updated', baseCommit, commit: await git.run(worktree, ['rev-parse', 'HEAD']) };

  const files = await unmergedPaths(git, worktree);
  if (strategy === 'rebase') {
    await git.run(worktree, ['rebase', '--abort']);
    if (files.length > 0) return { outcome: 'undone', baseCommit, files };
  } else {
    if (files.length > 0) return { outcome: 'conflicted', baseCommit, files };
    if (await mergeInProgress(git, worktree)) await git.run(worktree, ['merge', '--abort']);
  }
  throw gitFailed(args, result.exitCode, result.stderr || result.stdout);
}

/** Gives up a merge waiting in `worktree`: files and branch as they were before the update. */
export async function abortMerge(git: GitRunner, worktree: GitRepo): Promise<void> {
  if (await mergeInProgress(git, worktree)) await git.run(worktree, ['merge', '--abort']);
}

const MARKER = /^(<{7}|>{7})( |$)/m;

/** Which of `files` (relative to the worktree) still hold a conflict marker line (`<<<<<<<` or `>>>>>>>`). */
export async function filesWithMarkers(worktreePath: string, files: readonly string[]): Promise<string[]> {
  const marked = await Promise.all(files.map(async (file) => {
    const text = await readFile(join(worktreePath, file), 'utf8').catch(() => '');
    return MARKER.test(text) ? file : undefined;
  }));
  return marked.filter((file): file is string => file !== undefined);
}

/** Commits the resolved files: concludes the waiting merge (or, when none waits, records the person's fix). */
export function commitResolution(git: GitRunner, worktree: GitRepo, message: string, identity: Identity): Promise<string> {
  return stageAndCommit(git, worktree, message, identity);
}
