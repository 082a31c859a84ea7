// The one vocabulary of task statuses for people and for the sets the desk reasons with.
// Plain constants without zod, so the board's bundle can use them without pulling zod in. The statuses themselves are
// listed here and task.ts builds its zod enum from them, so neither file needs the other's types back.

/** Every status a task can be in, in the order a task usually passes through them. */
export const TASK_STATUSES = ['queued', 'in-progress', 'awaiting-input', 'completed', 'error', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

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
