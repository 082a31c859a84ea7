// Which queued tasks start now: first in, first out among those whose dependencies are all completed. Pure.
import type { TaskStatus } from '../../../shared/task';

export interface SchedulableTask {
  id: string;
  status: TaskStatus;
  dependencies: readonly string[];
}

/**
 * The tasks to start, in submission order, filling at most the free slots. `tasks` is in submission
 * order. `mayStart` holds back a ready task (e.g. its agent reached a rate limit) and is told which
 * tasks were already picked in this round, so per-agent limits count them too.
 */
export function pickTasksToStart<T extends SchedulableTask>(
  tasks: readonly T[],
  activeCount: number,
  concurrency: number,
  mayStart: (task: T, picked: readonly T[]) => boolean = () => true,
): T[] {
  const free = concurrency - activeCount;
  if (free <= 0) return [];
  const statusById = new Map(tasks.map((t) => [t.id, t.status]));
  const picked: T[] = [];
  for (const task of tasks) {
    if (picked.length === free) break;
    if (task.status !== 'queued' || !task.dependencies.every((d) => statusById.get(d) === 'completed')) continue;
    if (mayStart(task, picked)) picked.push(task);
  }
  return picked;
}
