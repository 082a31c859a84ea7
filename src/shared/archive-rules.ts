// Which tasks may be archived and which "Clear done" takes. Plain functions without zod, for the core and the board alike.
import type { ReviewState, TaskStatus } from './task';
import { FINISHED_STATUSES } from './task-status-labels';

/** A task may be archived once its run is over; a running or queued task stays on the board. */
export function mayArchive(task: { status: TaskStatus }): boolean {
  return FINISHED_STATUSES.includes(task.status);
}

/**
 * What "Clear done" archives: finished tasks nobody still has to look at (approved, rejected, failed or cancelled),
 * not completed ones that wait for review.
 */
export function isSettled(task: { status: TaskStatus; review: ReviewState; archived?: true }): boolean {
  if (task.archived || !mayArchive(task)) return false;
  return !(task.status === 'completed' && task.review === 'pending');
}
