// Whether making a task wait for others would close a cycle: the one rule the core enforces (409) and the board uses
// to offer only links it can make. Pure, without zod, so the board's bundle can use it.

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
