import { describe, expect, it } from 'vitest';
import { pickTasksToStart, type SchedulableTask } from './scheduler';

const task = (id: string, status: SchedulableTask['status'], dependencies: string[] = []): SchedulableTask => ({ id, status, dependencies });

describe('pickTasksToStart', () => {
  it('starts ready tasks in submission order up to the free slots', () => {
    const tasks = [task('a', 'queued'), task('b', 'queued'), task('c', 'queued')];
    expect(pickTasksToStart(tasks, 0, 2).map((t) => t.id)).toEqual(['a', 'b']);
  });

  it('starts nothing when every slot is taken', () => {
    expect(pickTasksToStart([task('a', 'in-progress'), task('b', 'queued')], 1, 1)).toEqual([]);
  });

  it('skips a task whose dependencies are not all completed and lets later ones pass', () => {
    const tasks = [task('a', 'in-progress'), task('b', 'queued', ['a']), task('c', 'queued')];
    expect(pickTasksToStart(tasks, 1, 2).map((t) => t.id)).toEqual(['c']);
  });

  it('starts a task once all its dependencies are completed', () => {
    const tasks = [task('a', 'completed'), task('b', 'completed'), task('c', 'queued', ['a', 'b'])];
    expect(pickTasksToStart(tasks, 0, 1).map((t) => t.id)).toEqual(['c']);
  });

  it('keeps waiting on unknown, failed and cancelled dependencies', () => {
    const tasks = [task('x', 'error'), task('y', 'cancelled'), task('a', 'queued', ['x']), task('b', 'queued', ['y']), task('c', 'queued', ['ghost'])];
    expect(pickTasksToStart(tasks, 0, 5)).toEqual([]);
  });

  it('lets a hold-back rule skip a ready task, counting tasks picked in the same round', () => {
    const tasks = [task('a', 'queued'), task('b', 'queued'), task('c', 'queued')];
    const onlyOneAtATime = (_t: SchedulableTask, picked: readonly SchedulableTask[]) => picked.length < 1;
    expect(pickTasksToStart(tasks, 0, 3, onlyOneAtATime).map((t) => t.id)).toEqual(['a']);
  });
});
