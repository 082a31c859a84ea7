import { describe, expect, it } from 'vitest';
import { treeOf, type ProcessInfo } from './process-table';

const p = (pid: number, ppid: number, pgid: number, zombie = false): ProcessInfo => ({ pid, ppid, pgid, zombie });

describe('treeOf', () => {
  it('finds children, grandchildren in their own groups, and orphans left in the group', () => {
    const table = [p(1, 0, 1), p(100, 1, 100), p(101, 100, 100), p(102, 100, 102), p(103, 102, 102), p(104, 1, 100), p(200, 1, 200)];
    expect(treeOf(100, table).map((x) => x.pid).sort()).toEqual([100, 101, 102, 103, 104]);
  });

  it('ignores zombies, which are already dead', () => {
    expect(treeOf(100, [p(100, 1, 100, true), p(101, 100, 100, true)])).toEqual([]);
  });

  it('is empty for a process that is gone', () => {
    expect(treeOf(100, [p(1, 0, 1)])).toEqual([]);
  });
});
