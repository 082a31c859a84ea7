// The task state machine: which status changes are legal. Pure.
import type { TaskStatus } from '../../../shared/task';

const NEXT: Record<TaskStatus, readonly TaskStatus[]> = {
  queued: ['in-progress', 'cancelled'],
  // Back to queued only when the desk stops or restarts under a running task (it will run again).
  'in-progress': ['awaiting-input', 'completed', 'error', 'cancelled', 'queued'],
  'awaiting-input': ['in-progress', 'completed', 'error', 'cancelled', 'queued'],
  // A finished task changes only through a resubmission, which replaces it.
  completed: [],
  error: [],
  cancelled: [],
};

export function canTransition(from: TaskStatus, to: TaskStatus): boolean {
  return NEXT[from].includes(to);
}

/** Statuses in which an agent process may be alive for the task. */
export function isActive(status: TaskStatus): boolean {
  return status === 'in-progress' || status === 'awaiting-input';
}
