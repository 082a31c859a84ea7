import { describe, expect, it } from 'vitest';
import { pickTasksToStart, type SchedulableTask } from './scheduler';

const task = (id: string, status: SchedulableTask['status'], dependencies: string[] = []): SchedulableTask => ({ id, status, dependencies });
/** The scheduler over a whole list, the way a list of every task would be passed. */
const pick = (tasks: SchedulableTask[], active: number, concurrency: number, mayStart?: (t: SchedulableTask, picked: readonly SchedulableTask[]) => boolean) =>
  pickTasksToStart(tasks, (id) => {
    const found = tasks.find((t) => t.id === id);
    return found && { status: found.status, review: 'pending' };
  }, active, concurrency, mayStart);

describe('pickTasksToStart', () => {
  it('starts ready tasks in submission order up to the free slots', () => {
    const tasks = [task('a', 'queued'), task('b', 'queued'), task('c', 'queued')];
    expect(pick(tasks, 0, 2).map((t) => t.id)).toEqual(['a', 'b']);
  });

  it('starts nothing when every slot is taken', () => {
    expect(pick([task('a', 'in-progress'), task('b', 'queued')], 1, 1)).toEqual([]);
  });

  it('skips a task whose dependencies are not all completed and lets later ones pass', () => {
    const tasks = [task('a', 'in-progress'), task('b', 'queued', ['a']), task('c', 'queued')];
    expect(pick(tasks, 1, 2).map((t) => t.id)).toEqual(['c']);
  });

  it('starts a task once all its dependencies are completed', () => {
    const tasks = [task('a', 'completed'), task('b', 'completed'), task('c', 'queued', ['a', 'b'])];
    expect(pick(tasks, 0, 1).map((t) => t.id)).toEqual(['c']);
  });

  it('keeps waiting on unknown, failed and cancelled dependencies', () => {
    const tasks = [task('x', 'error'), task('y', 'cancelled'), task('a', 'queued', ['x']), task('b', 'queued', ['y']), task('c', 'queued', ['ghost'])];
    expect(pick(tasks, 0, 5)).toEqual([]);
  });

  it('lets a hold-back rule skip a ready task, counting tasks picked in the same round', () => {
    const tasks = [task('a', 'queued'), task('b', 'queued'), task('c', 'queued')];
    const onlyOneAtATime = (_t: SchedulableTask, picked: readonly SchedulableTask[]) => picked.length < 1;
    expect(pick(tasks, 0, 3, onlyOneAtATime).map((t) => t.id)).toEqual(['a']);
  });

  it('reads a lazy sequence of candidates only as far as the free slots', () => {
    let read = 0;
    function* candidates() { for (const id of ['a', 'b', 'c', 'd']) { read += 1; yield task(id, 'queued'); } }
    expect(pickTasksToStart(candidates(), () => undefined, 0, 2).map((t) => t.id)).toEqual(['a', 'b']);
    expect(read).toBe(2);
  });
});
