// Task and turn writes on a database with no room (a real SQLite file held at its size with max_page_count, which
// SQLite answers with SQLITE_FULL as for a full disk): answered from memory, written in order once there is room.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './database';
import { createDeferredWrites, deferringTasks, deferringTurns, type DeferredWrites } from './deferred-writes';
import { createTasksRepo, type TasksRepo } from './tasks-repo';
import { createTurnsRepo } from './turns-repo';

let dir: string | undefined;
let db: Db | undefined;
let writes: DeferredWrites | undefined;
afterEach(() => {
  writes?.stop();
  db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  db = undefined;
  dir = undefined;
});

const at = '2026-01-01T00:00:00.000Z';
const long = (text: string) => `${text} ${'x'.repeat(100_000)}`;

/** A database holding task `t`, held at its size from now on; the deferring repos over it, and their hooks. */
function fullDesk() {
  const database = openDatabase(join((dir = mkdtempSync(join(tmpdir(), 'desk-full-db-'))), 'desk.sqlite'));
  db = database;
  const stored = createTasksRepo(database, '/repo');
  stored.putSubmission({ id: 't', prompt: 'p', dependencies: [], agent: 'scripted', status: 'in-progress', review: 'pending', submittedAt: at, updatedAt: at, baseBranch: 'main', attempt: 1 });
  database.pragma(`max_page_count = ${database.pragma('page_count', { simple: true }) as number}`);
  const full: unknown[] = [];
  let wrote: () => void = () => {};
  const written = new Promise<void>((resolve) => { wrote = resolve; });
  writes = createDeferredWrites(database, { onFull: (error) => full.push(error), onWritten: () => wrote(), onDropped: (error) => { throw error; }, retryMs: 5 });
  const makeRoom = () => database.pragma('max_page_count = 1000000');
  return { database, stored, tasks: deferringTasks(stored, writes), turns: deferringTurns(createTurnsRepo(database, '/repo'), writes), full, written, makeRoom };
}

const statusIn = (tasks: TasksRepo) => {
  const task = tasks.get('t');
  return { status: task?.status, errorMessage: task?.errorMessage?.slice(0, 9), finishedAt: task?.finishedAt };
};

describe('task records when the disk is full', () => {
  it('answers a status change from memory without throwing, and reports the disk as full', () => {
    const { stored, tasks, full } = fullDesk();
    const updated = tasks.update('t', { status: 'error', errorMessage: long('Disk full') });
    expect(updated).toMatchObject({ id: 't', status: 'error' });
    expect(tasks.get('t')?.status).toBe('error');
    expect(stored.get('t')?.status).toBe('in-progress');
    expect(full[0]).toMatchObject({ code: 'SQLITE_FULL' });
  });

  it('writes the waiting changes by itself, in order, once there is room, and the database stays intact', async () => {
    const { database, stored, tasks, written, makeRoom } = fullDesk();
    tasks.update('t', { status: 'error', errorMessage: long('Disk full') });
    // Small enough to fit: it still waits behind the first, so the table never shows them out of order.
    tasks.update('t', { finishedAt: '2026-01-01T00:01:00.000Z', agentPid: null });
    expect(stored.get('t')?.finishedAt).toBeUndefined();
    makeRoom();
    await written;
    expect(statusIn(stored)).toEqual({ status: 'error', errorMessage: 'Disk full', finishedAt: '2026-01-01T00:01:00.000Z' });
    expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('keeps a turn started while the disk is full, readable at once and stored once there is room', async () => {
    const { database, turns, written, makeRoom } = fullDesk();
    const turn = turns.startOver('t', long('the prompt'), 'scripted', at);
    turns.update('t', turn.turn, { status: 'running', startedAt: at });
    expect(turns.latest('t')).toMatchObject({ turn: 1, status: 'running' });
    expect(database.prepare('SELECT COUNT(*) AS n FROM task_turns').get()).toEqual({ n: 0 });
    makeRoom();
    await written;
    expect(createTurnsRepo(database, '/repo').latest('t')).toMatchObject({ turn: 1, status: 'running', startedAt: at });
  });
});
