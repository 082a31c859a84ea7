// Pure decisions about task dependencies: cycles, what a task still waits for, and whether it may start.
import type { DependencyGate, UnmetDependency } from '../../../shared/task';
import { dependencyDone, type DependencyStateOf } from './scheduler';

/** Who depends on what: task id → the ids it waits for (only lookups are needed, so an index can serve it). */
export type DependencyMap = Pick<ReadonlyMap<string, readonly string[]>, 'get'>;

/**
 * The cycle that `taskId` waiting for `dependencies` would close, as a path that starts and ends
 * with `taskId` (e.g. `['a', 'b', 'a']`), or undefined when the graph stays acyclic.
 * `graph` is the current graph; the task's own entry in it is ignored (a resubmission replaces it).
 * Walks only what the new dependencies reach, each task once, without recursion (chains may be long).
 */
export function findCycle(graph: DependencyMap, taskId: string, dependencies: readonly string[]): string[] | undefined {
  // Who reached each visited task first: the way back once taskId is found.
  const reachedFrom = new Map<string, string>();
  const stack: string[] = [];
  const visit = (node: string, from: string) => {
    if (reachedFrom.has(node)) return;
    reachedFrom.set(node, from);
    stack.push(node);
  };
  // Reversed onto the stack, so the first dependency is explored first.
  for (let i = dependencies.length - 1; i >= 0; i -= 1) visit(dependencies[i] as string, taskId);
  while (stack.length > 0) {
    const node = stack.pop() as string;
    if (node === taskId) return pathBack(reachedFrom, taskId);
    const next = graph.get(node) ?? [];
    for (let i = next.length - 1; i >= 0; i -= 1) visit(next[i] as string, node);
  }
  return undefined;
}

function pathBack(reachedFrom: ReadonlyMap<string, string>, taskId: string): string[] {
  const path = [taskId];
  for (let node = reachedFrom.get(taskId) as string; node !== taskId; node = reachedFrom.get(node) as string) path.push(node);
  path.push(taskId);
  return path.reverse();
}

/** The dependencies that are not done yet (completed, or approved when `after` says so), with their state. */
export function unmetDependencies(
  dependencies: readonly string[],
  stateOf: DependencyStateOf,
  after?: DependencyGate,
): UnmetDependency[] {
  const unmet: UnmetDependency[] = [];
  for (const id of dependencies) {
    const state = stateOf(id);
    if (dependencyDone({ after }, state)) continue;
    const status = state?.status;
    if (status === 'completed' && state) {
      // Completed, waiting for a person's approval; a rejection means it will not come by itself.
      unmet.push({ id, status, blocking: state.review === 'rejected', review: state.review });
    } else {
      unmet.push({ id, status: status ?? 'unknown', blocking: status === 'error' || status === 'cancelled' });
    }
  }
  return unmet;
}

/** A sentence for a person saying why the task cannot start by itself, if a dependency will not finish. */
export function blockedReason(unmet: readonly UnmetDependency[]): string | undefined {
  const blocking = unmet.filter((d) => d.blocking);
  if (blocking.length === 0) return undefined;
  const list = blocking.map((d) => `${d.id} (${d.review === 'rejected' ? 'rejected' : d.status === 'error' ? 'failed' : 'cancelled'})`).join(', ');
  return `Waiting for ${list}: resubmit ${blocking.length === 1 ? 'it' : 'them'} or remove the dependency.`;
}
