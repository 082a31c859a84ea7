import { describe, expect, it } from 'vitest';
import type { TaskStatus } from '../../../shared/task';
import { createTaskGraph, type GraphNode } from './task-graph';

const node = (id: string, seq: number, status: TaskStatus = 'queued', dependencies: string[] = []): GraphNode => ({ id, seq, status, agent: 'x', dependencies, review: 'pending' });
const ready = (graph: ReturnType<typeof createTaskGraph>) => [...graph.readyCandidates()].map((t) => t.id);

describe('task graph', () => {
  it('refuses the edge that closes a cycle and names it', () => {
    const graph = createTaskGraph([node('a', 1, 'queued', ['b']), node('b', 2, 'queued', ['c'])]);
    expect(graph.cycleFor('c', ['a'])).toEqual(['c', 'a', 'b', 'c']);
    expect(graph.cycleFor('c', ['x'])).toBeUndefined();
  });

  it('walks a chain of 50,000 tasks without running out of stack', () => {
    const chain = Array.from({ length: 50_000 }, (_, i) => node(`n${i}`, i + 1, 'queued', i === 0 ? [] : [`n${i - 1}`]));
    const graph = createTaskGraph(chain);
    expect(graph.cycleFor('new', ['n49999'])).toBeUndefined();
    expect(graph.cycleFor('n0', ['n49999'])).toHaveLength(50_001);
  });

  it('offers a dependent again once its dependency completes, in submission order', () => {
    const graph = createTaskGraph([node('a', 1, 'in-progress'), node('b', 2, 'queued', ['a']), node('c', 3)]);
    expect(ready(graph)).toEqual(['c']);
    graph.put(node('c', 3, 'in-progress'));
    expect(ready(graph)).toEqual([]);
    graph.put(node('a', 1, 'completed'));
    expect(ready(graph)).toEqual(['b']);
  });

  it('keeps a ready task that found no slot, and reads only as far as asked', () => {
    const graph = createTaskGraph([node('a', 1), node('b', 2), node('c', 3)]);
    for (const task of graph.readyCandidates()) if (task.id === 'a') break;
    expect(ready(graph)).toEqual(['a', 'b', 'c']);
  });

  it('moves a resubmitted task to the end and drops its old edges', () => {
    const graph = createTaskGraph([node('a', 1, 'queued', ['x']), node('b', 2)]);
    graph.put(node('a', 3));
    expect(ready(graph)).toEqual(['b', 'a']);
    expect(graph.dependentsOf('x').size).toBe(0);
  });
});
