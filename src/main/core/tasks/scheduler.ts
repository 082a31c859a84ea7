// Which queued tasks start now: first in, first out among those whose dependencies are all done. Pure.
import type { DependencyGate, ProposalState, ReviewState, TaskStatus } from '../../../shared/task';

export interface SchedulableTask {
  id: string;
  status: TaskStatus;
  dependencies: readonly string[];
  /** `approved`: a dependency counts only once approved, not merely completed. */
  after?: DependencyGate;
  /** A proposed task runs only once accepted. */
  proposal?: ProposalState;
}

/** What readiness needs to know of a dependency. */
export type DependencyStateOf = (id: string) => { status: TaskStatus; review: ReviewState } | undefined;

/** Whether `dependency` is done as far as `task` is concerned: completed, and approved if the task asks for that. */
export function dependencyDone(task: Pick<SchedulableTask, 'after'>, dependency: ReturnType<DependencyStateOf>): boolean {
  return dependency?.status === 'completed' && (task.after !== 'approved' || dependency.review === 'approved');
}

/** Whether a task may start as far as the graph goes: queued, not a proposal still waiting, and every dependency done. */
export function isReady(task: SchedulableTask, stateOf: DependencyStateOf): boolean {
  return task.status === 'queued' && task.proposal !== 'pending' && task.dependencies.every((d) => dependencyDone(task, stateOf(d)));
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
  stateOf: DependencyStateOf,
  activeCount: number,
  concurrency: number,
  mayStart: (task: T, picked: readonly T[]) => boolean = () => true,
): T[] {
  const free = concurrency - activeCount;
  if (free <= 0) return [];
  const picked: T[] = [];
  for (const task of candidates) {
    if (!isReady(task, stateOf)) continue;
    if (mayStart(task, picked)) picked.push(task);
    if (picked.length === free) break;
  }
  return picked;
}
