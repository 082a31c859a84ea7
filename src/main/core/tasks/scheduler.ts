// Which queued tasks start now: first in, first out among those whose dependencies are all completed. Pure.
import type { TaskStatus } from '../../../shared/task';

export interface SchedulableTask {
  id: string;
  status: TaskStatus;
  dependencies: readonly string[];
}

/** Whether a task may start as far as the graph goes: queued, and every dependency completed. */
export function isReady(task: SchedulableTask, statusOf: (id: string) => TaskStatus | undefined): boolean {
  return task.status === 'queued' && task.dependencies.every((d) => statusOf(d) === 'completed');
}

/**
 * The tasks to start, in submission order, filling at most the free slots. `candidates` is in
 * submission order and may hold tasks that are not ready (they are skipped); it is read only as far
 * as needed, so a lazy sequence of candidates costs what is picked, not what waits. `mayStart` holds
 * back a ready task (e.g. its agent reached a rate limit) and is told which tasks were already picked
 * in this round, so per-agent limits count them too.
 */
export function pickTasksToStart<T extends SchedulableTask>(
  candidates: Iterable<T>,
  statusOf: (id: string) => TaskStatus | undefined,
  activeCount: number,
  concurrency: number,
  mayStart: (task: T, picked: readonly T[]) => boolean = () => true,
): T[] {
  const free = concurrency - activeCount;
  if (free <= 0) return [];
  const picked: T[] = [];
  for (const task of candidates) {
    if (!isReady(task, statusOf)) continue;
    if (mayStart(task, picked)) picked.push(task);
    if (picked.length === free) break;
  }
  return picked;
}
