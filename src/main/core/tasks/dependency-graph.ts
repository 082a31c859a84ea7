// Pure decisions about task dependencies: cycles, what a task still waits for, and whether it may start.
import type { TaskStatus, UnmetDependency } from '../../../shared/task';

/** Who depends on what: task id → the ids it waits for. */
export type DependencyMap = ReadonlyMap<string, readonly string[]>;

/**
 * The cycle that `taskId` waiting for `dependencies` would close, as a path that starts and ends
 * with `taskId` (e.g. `['a', 'b', 'a']`), or undefined when the graph stays acyclic.
 * `graph` is the current graph; the task's own entry in it is ignored (a resubmission replaces it).
 */
export function findCycle(graph: DependencyMap, taskId: string, dependencies: readonly string[]): string[] | undefined {
  const visited = new Set<string>();
  // Depth-first search from each new dependency, looking for a path back to taskId.
  const walk = (node: string, path: string[]): string[] | undefined => {
    if (node === taskId) return path;
    if (visited.has(node)) return undefined;
    visited.add(node);
    for (const next of graph.get(node) ?? []) {
      const found = walk(next, [...path, next]);
      if (found) return found;
    }
    return undefined;
  };
  for (const dependency of dependencies) {
    const found = walk(dependency, [taskId, dependency]);
    if (found) return found;
  }
  return undefined;
}

/** The dependencies that are not completed yet, with their status. */
export function unmetDependencies(
  dependencies: readonly string[],
  statusOf: (id: string) => TaskStatus | undefined,
): UnmetDependency[] {
  const unmet: UnmetDependency[] = [];
  for (const id of dependencies) {
    const status = statusOf(id);
    if (status === 'completed') continue;
    unmet.push({ id, status: status ?? 'unknown', blocking: status === 'error' || status === 'cancelled' });
  }
  return unmet;
}

/** A sentence for a person saying why the task cannot start by itself, if a dependency will not finish. */
export function blockedReason(unmet: readonly UnmetDependency[]): string | undefined {
  const blocking = unmet.filter((d) => d.blocking);
  if (blocking.length === 0) return undefined;
  const list = blocking.map((d) => `${d.id} (${d.status === 'error' ? 'failed' : 'cancelled'})`).join(', ');
  return `Waiting for ${list}: resubmit ${blocking.length === 1 ? 'it' : 'them'} or remove the dependency.`;
}
