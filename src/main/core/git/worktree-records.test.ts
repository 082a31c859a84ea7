// The desk's records of the worktrees and branches it made: kept in files that outlive the desk.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { worktreeDirNameFor } from './branch-names';
import { createWorktreeRecords } from './worktree-records';

let dir: string;
beforeEach(() => { dir = join(mkdtempSync(join(tmpdir(), 'desk-records-')), 'worktrees'); });
afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

const path = `/data/worktrees/${worktreeDirNameFor('task one')}`;
const record = { taskId: 'task one', branch: 'desk/x/task-one', path, gitDir: `/repo/.git/worktrees/${worktreeDirNameFor('task one')}` };

describe('worktree records', () => {
  it('are found by the next desk on the same data dir, by task and by path', async () => {
    await createWorktreeRecords(dir).put(record);
    const next = createWorktreeRecords(dir);
    expect(await next.get('task one')).toEqual(record);
    expect(await next.atPath(path)).toEqual(record);
  });

  it('say the latest of two writes of one task', async () => {
    const records = createWorktreeRecords(dir);
    await records.put({ ...record, gitDir: '/repo/.git/worktrees/task-one' });
    await records.put({ ...record, gitDir: '/repo/.git/worktrees/task-one1' });
    expect((await records.get('task one'))?.gitDir).toBe('/repo/.git/worktrees/task-one1');
    expect((await createWorktreeRecords(dir).get('task one'))?.gitDir).toBe('/repo/.git/worktrees/task-one1');
  });

  it('are gone once removed, for this desk and the next', async () => {
    const records = createWorktreeRecords(dir);
    await records.put(record);
    await records.remove('task one');
    expect(await records.get('task one')).toBeUndefined();
    expect(await records.atPath(path)).toBeUndefined();
    expect(await createWorktreeRecords(dir).get('task one')).toBeUndefined();
  });

  it('name no task at a path other than the one recorded', async () => {
    const records = createWorktreeRecords(dir);
    await records.put(record);
    expect(await records.atPath(`/elsewhere/${worktreeDirNameFor('task one')}`)).toBeUndefined();
  });
});
