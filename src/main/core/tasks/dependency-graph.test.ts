import { describe, expect, it } from 'vitest';
import { blockedReason, findCycle, unmetDependencies } from './dependency-graph';
import type { ReviewState } from '../../../shared/task';

describe('findCycle', () => {
  it('finds no cycle in a chain', () => {
    const graph = new Map([['b', ['a']], ['a', []]]);
    expect(findCycle(graph, 'c', ['b'])).toBeUndefined();
  });

  it('names the cycle a new dependency would close', () => {
    const graph = new Map([['b', ['a']], ['c', ['b']]]);
    expect(findCycle(graph, 'a', ['c'])).toEqual(['a', 'c', 'b', 'a']);
  });

  it('treats a task waiting for itself as a cycle', () => {
    expect(findCycle(new Map(), 'a', ['a'])).toEqual(['a', 'a']);
  });

  it('ignores the old dependencies of a resubmitted task', () => {
    const graph = new Map([['a', ['b']], ['b', []]]);
    expect(findCycle(graph, 'b', ['x'])).toBeUndefined();
  });

  it('allows dependencies on tasks not submitted yet', () => {
    expect(findCycle(new Map([['a', ['ghost']]]), 'b', ['ghost', 'a'])).toBeUndefined();
  });

  it('handles diamonds without reporting a cycle', () => {
    const graph = new Map([['b', ['a']], ['c', ['a']], ['d', ['b', 'c']]]);
    expect(findCycle(graph, 'e', ['d', 'b'])).toBeUndefined();
  });
});

describe('unmetDependencies', () => {
  const statuses = new Map([['done', 'completed'], ['busy', 'in-progress'], ['broken', 'error'], ['stopped', 'cancelled']] as const);
  const reviews = new Map<string, ReviewState>([['approved', 'approved'], ['refused', 'rejected']]);
  const statusOf = (id: string) => {
    const status = statuses.get(id as never) ?? (reviews.has(id) ? 'completed' : undefined);
    return status && { status, review: reviews.get(id) ?? 'pending' };
  };

  it('lists every dependency that is not completed, unknown ones included', () => {
    expect(unmetDependencies(['done', 'busy', 'ghost'], statusOf)).toEqual([
      { id: 'busy', status: 'in-progress', blocking: false },
      { id: 'ghost', status: 'unknown', blocking: false },
    ]);
  });

  it('marks failed and cancelled dependencies as blocking, with a reason', () => {
    const unmet = unmetDependencies(['broken', 'stopped'], statusOf);
    expect(unmet.every((d) => d.blocking)).toBe(true);
    expect(blockedReason(unmet)).toBe('Waiting for broken (failed), stopped (cancelled): resubmit them or remove the dependency.');
  });

  it('gives no reason while dependencies may still finish', () => {
    expect(blockedReason(unmetDependencies(['busy'], statusOf))).toBeUndefined();
  });

  it('waits for approval when the task asks for it, and is held with a reason when a dependency is rejected', () => {
    expect(unmetDependencies(['done', 'approved'], statusOf)).toEqual([]);
    const unmet = unmetDependencies(['done', 'approved', 'refused'], statusOf, 'approved');
    expect(unmet).toEqual([
      { id: 'done', status: 'completed', blocking: false, review: 'pending' },
      { id: 'refused', status: 'completed', blocking: true, review: 'rejected' },
    ]);
    expect(blockedReason(unmet)).toBe('Waiting for refused (rejected): resubmit it or remove the dependency.');
  });
});
