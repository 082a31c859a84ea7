// Which tasks a task can still wait for, and why the others are not offered: the board's dependency pickers show
// both. Pure, without zod; the cycle rule is the core's own (`findCycle`).
import { findCycle } from './dependency-cycle';
import type { TaskStatus } from './task';
import { FINISHED_STATUSES, STATUS_LABELS } from './task-status-labels';

export interface OfferableTask { id: string; title: string; status: TaskStatus; dependencies: readonly string[] }

export type NotOfferedReason =
  | { kind: 'self' }
  | { kind: 'already' }
  | { kind: 'finished'; status: TaskStatus }
  | { kind: 'cycle'; cycle: string[] };

export interface DependencyOffer {
  id: string;
  title: string;
  /** Absent when the task can be waited for. */
  notOffered?: NotOfferedReason;
}

/**
 * Every task of `tasks` as a candidate for `taskId` to wait for (`taskId` may name no task yet: a new one), in the
 * order given: offered unless it is `taskId` itself, already waited for, finished (its run is over: nothing left to
 * wait for), or waits (through others) for `taskId`, so that the link would close a cycle.
 */
export function dependencyOffers(taskId: string | undefined, current: readonly string[], tasks: readonly OfferableTask[]): DependencyOffer[] {
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const closesCycle = taskId === undefined ? new Set<string>() : waitersOf(taskId, tasks);
  const graph = { get: (id: string) => byId.get(id)?.dependencies };
  return tasks.map((task): DependencyOffer => {
    const offer = { id: task.id, title: task.title };
    if (task.id === taskId) return { ...offer, notOffered: { kind: 'self' } };
    if (current.includes(task.id)) return { ...offer, notOffered: { kind: 'already' } };
    if (FINISHED_STATUSES.includes(task.status)) return { ...offer, notOffered: { kind: 'finished', status: task.status } };
    if (taskId !== undefined && closesCycle.has(task.id)) {
      const cycle = findCycle(graph, taskId, [task.id]);
      if (cycle) return { ...offer, notOffered: { kind: 'cycle', cycle } };
    }
    return offer;
  });
}

/** The tasks that wait for `taskId`, directly or through others (one walk over the reversed links). */
function waitersOf(taskId: string, tasks: readonly OfferableTask[]): Set<string> {
  const waiting = new Map<string, string[]>();
  for (const task of tasks) {
    for (const dependency of task.dependencies) {
      const list = waiting.get(dependency);
      if (list) list.push(task.id);
      else waiting.set(dependency, [task.id]);
    }
  }
  const found = new Set<string>();
  const stack = [taskId];
  while (stack.length > 0) {
    for (const waiter of waiting.get(stack.pop() as string) ?? []) {
      if (found.has(waiter)) continue;
      found.add(waiter);
      stack.push(waiter);
    }
  }
  return found;
}

/** Why a task is not offered, in a few words for the picker. */
export function notOfferedText(reason: NotOfferedReason): string {
  switch (reason.kind) {
    case 'self': return 'this task';
    case 'already': return 'already waited for';
    case 'finished': return `finished (${STATUS_LABELS[reason.status].toLowerCase()}): nothing left to wait for`;
    case 'cycle': return `would close a cycle: ${reason.cycle.join(' → ')}`;
  }
}
