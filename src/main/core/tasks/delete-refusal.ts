// DELETE cancels a task that has not finished. For one that has, there is nothing to cancel: the answer is 409 with
// what to do instead (reject it, re-run it, or archive it), never a silent 200 that changes nothing. Pure.
import { DeskError } from '../../../shared/desk-error';
import type { TaskSummary } from '../../../shared/task';

/** Throws `task_finished` (409) for a task whose run is over, except a cancelled one (DELETE again changes nothing). */
export function refuseDeleteOfFinished(task: Pick<TaskSummary, 'id' | 'status' | 'review'>): void {
  const { id } = task;
  const path = encodeURIComponent(id);
  const archive = `archive it (POST /tasks/${path}/archive) to take it off the board`;
  let message: string | undefined;
  if (task.status === 'completed' && task.review === 'pending') {
    message = `Task ${id} is completed and waits for review, so there is nothing to cancel. Reject it (POST /tasks/${path}/reject) to discard its branch (kept under an archive ref), or ${archive}.`;
  } else if (task.status === 'completed' && task.review === 'approved') {
    message = `Task ${id} is approved and merged into its base branch, so there is nothing to cancel; ${archive}.`;
  } else if (task.review === 'rejected') {
    message = `Task ${id} was rejected, so there is nothing to cancel; ${archive}.`;
  } else if (task.status === 'error') {
    message = `Task ${id} ended in error, so there is nothing to cancel. Re-run it (POST /tasks/${path}/rerun), or ${archive}.`;
  }
  if (message !== undefined) throw new DeskError('conflict', 'task_finished', message, { status: task.status, review: task.review });
}
