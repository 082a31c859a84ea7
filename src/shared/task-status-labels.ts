// The one vocabulary of task statuses for people and for the sets the desk reasons with.
// Plain constants without zod, so the board's bundle can use them without pulling zod in.
import type { TaskStatus } from './task';

/** What each status is called wherever a person reads it (board filters, task header, stream rows). */
export const STATUS_LABELS: Readonly<Record<TaskStatus, string>> = {
  queued: 'Queued',
  'in-progress': 'Working',
  'awaiting-input': 'Needs input',
  completed: 'Completed',
  error: 'Failed',
  cancelled: 'Cancelled',
};

/** Statuses of a task whose run is not over: waiting to start, working, or waiting for a person. */
export const ACTIVE_STATUSES: readonly TaskStatus[] = ['queued', 'in-progress', 'awaiting-input'];

/** Statuses after which the task's run is over (a resubmission starts a new run). */
export const FINISHED_STATUSES: readonly TaskStatus[] = ['completed', 'error', 'cancelled'];
