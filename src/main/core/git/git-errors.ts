// What the git layer refuses or fails at, as DeskErrors, so callers (task service, HTTP routes) react to
// each case by its `code` instead of parsing git's words.
import { DeskError } from '../../../shared/desk-error';

export const notAGitRepository = (path: string, detail?: string) =>
  new DeskError('invalid', 'not_a_git_repository', `${path} is not inside a git work tree${detail ? `: ${detail}` : ''}`, { path });

export const emptyRepository = (branch: string) =>
  new DeskError('conflict', 'empty_repository', `The branch ${branch} has no commits yet; make a first commit before starting tasks from it`, { branch });

export const unknownBranch = (branch: string) => new DeskError('not_found', 'unknown_branch', `There is no branch named ${branch}`, { branch });

/** `branch` is the dependency branch whose merge conflicted. */
export const mergeConflict = (branch: string, paths: readonly string[]) =>
  new DeskError('conflict', 'merge_conflict', `Merging dependency ${branch} conflicts in: ${paths.join(', ')}`, { branch, paths });

/** A checkout with uncommitted changes the desk will not merge into. */
export const dirtyCheckout = (message: string) => new DeskError('conflict', 'dirty_checkout', message);

export const gitFailed = (args: readonly string[], exitCode: number | undefined, gitMessage: string) =>
  new DeskError('internal', 'git_failed', `git ${args.join(' ')} failed${exitCode === undefined ? '' : ` (exit ${exitCode})`}: ${gitMessage.trim() || 'no message'}`, { args, exitCode });

/** A task worktree's link to its repository no longer says what the desk made; the desk will not commit there.
 * `file` is the file that no longer says what the desk wrote or expects. */
export const worktreeTampered = (file: string, detail: string) =>
  new DeskError('conflict', 'worktree_tampered', `${file} was changed (${detail}); nothing was committed`, { file });

/** A branch with the name the desk would give a task exists, and this desk did not make it. */
export const branchTaken = (branch: string) =>
  new DeskError('conflict', 'branch_taken', `A branch named ${branch} exists and was not made by this desk; rename or delete it, then run the task again`, { branch });

/**
 * Approval found that the base branch moved on since the task started and now conflicts with the task's branch in
 * `paths`: the way on is to update the task from the base, not to run it again.
 */
export const baseConflict = (baseBranch: string, branch: string, paths: readonly string[]) =>
  new DeskError('conflict', 'base_conflict', `The base moved on: ${branch} conflicts with ${baseBranch} in ${paths.join(', ')}. Update the task from ${baseBranch} (Update from base), resolve the conflicts, then approve again.`, { baseBranch, branch, paths });

/** An update from the base branch that cannot start now (uncommitted changes, an update already waiting). */
export const updateRefused = (message: string) => new DeskError('conflict', 'update_refused', message);
