// Pure decisions about task dependencies: cycles, what a task still waits for, and whether it may start.
import type { DependencyGate, UnmetDependency } from '../../../shared/task';
import { dependencyDone, type DependencyStateOf } from './scheduler';

// The cycle check is shared with the board, which uses it to say which tasks a task can still wait for.
export { findCycle, type DependencyMap } from '../../../shared/dependency-cycle';

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
