// Which queued tasks start now: first in, first out among those whose dependencies are all completed. Pure.
import type { TaskStatus } from '../../../shared/task';

export interface SchedulableTask {
  id: string;
  status: TaskStatus;
  dependencies: readonly string[];
}

/** The tasks to start, in submission order, filling at most the free slots. `tasks` is in submission order. */
export function pickTasksToStart<T extends SchedulableTask>(tasks: readonly T[], activeCount: number, concurrency: number): T[] {
  const free = concurrency - activeCount;
  if (free <= 0) return [];
  const statusById = new Map(tasks.map((t) => [t.id, t.status]));
  const ready = tasks.filter(
    (t) => t.status === 'queued' && t.dependencies.every((d) => statusById.get(d) === 'completed'),
  );
  return ready.slice(0, free);
}
