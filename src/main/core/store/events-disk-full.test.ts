// The event writer on a database with no room (a real SQLite file held at its size with max_page_count, which SQLite
// answers with SQLITE_FULL exactly as for a full disk): nothing thrown, nothing lost, written once there is room.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventEnvelope, TaskEvent } from '../../../shared/events';
import { openDatabase, type Db } from './database';
import { createEventsRepo, type EventsRepoOptions } from './events-repo';

let dir: string | undefined;
let db: Db | undefined;
afterEach(() => {
  db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  db = undefined;
  dir = undefined;
});

/** A database that cannot grow by a page: every insert of a new event finds no room. */
function fullDatabase(): Db {
  db = openDatabase(join((dir = mkdtempSync(join(tmpdir(), 'desk-full-db-'))), 'desk.sqlite'));
  db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
  return db;
}

const makeRoom = (database: Db) => database.pragma('max_page_count = 1000000');
const log = (text: string): TaskEvent => ({ type: 'log', level: 'info', source: 'desk', text });
const output = (data: string): TaskEvent => ({ type: 'terminal-output', terminalId: 't1', data });
const storedCount = (database: Db) => (database.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;

/** The repo with hooks that resolve when a write fails or gets through again. */
function watchedRepo(database: Db, options: EventsRepoOptions = {}) {
  const failures: { error: unknown; kept: boolean }[] = [];
  let wrote: () => void = () => {};
  const written = new Promise<void>((resolve) => { wrote = resolve; });
  const events = createEventsRepo(database, '/repo', { flushDelayMs: 1, retryMs: 5, ...options, onWriteFailed: (error, kept) => failures.push({ error, kept }), onWritten: () => wrote() });
  return { events, failures, written };
}

describe('the event writer when the disk is full', () => {
  it('keeps the events it could not write, without throwing, and reports the disk as full', () => {
    const database = fullDatabase();
    const { events, failures } = watchedRepo(database);
    for (let i = 0; i < 50; i += 1) events.append('t', 1, log(`line ${i} ${'x'.repeat(500)}`), '2026-01-01T00:00:00.000Z');
    expect(() => events.flush()).not.toThrow();
    expect(failures.length).toBeGreaterThan(0);
    expect(failures[0]).toMatchObject({ kept: true, error: expect.objectContaining({ code: 'SQLITE_FULL' }) });
    expect(events.queued()).toBe(50);
    expect(storedCount(database)).toBe(0);
    events.close();
  });

  it('shows readers the events still waiting, in order', () => {
    const database = fullDatabase();
    const { events } = watchedRepo(database);
    for (let i = 0; i < 5; i += 1) events.append('t', 1, log(`line ${i} ${'x'.repeat(2000)}`), '2026-01-01T00:00:00.000Z');
    events.append('other', 1, log('not this task'), '2026-01-01T00:00:00.000Z');
    const read = events.listForTask('t', { after: 2, limit: 10 });
    expect(read.map((e: EventEnvelope) => e.seq)).toEqual([3, 4, 5]);
    expect(events.listAfter(0, 100).map((e) => e.taskId)).toEqual(['t', 't', 't', 't', 't', 'other']);
    events.close();
  });

  it('writes every waiting event by itself once there is room, and the database stays intact', async () => {
    const database = fullDatabase();
    const { events, written } = watchedRepo(database);
    for (let i = 0; i < 200; i += 1) events.append('t', 1, log(`line ${i} ${'x'.repeat(500)}`), '2026-01-01T00:00:00.000Z');
    events.flush();
    makeRoom(database);
    await written;
    expect(storedCount(database)).toBe(200);
    expect(events.queued()).toBe(0);
    expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
    events.close();
  });

  it('bounds what it keeps, giving up the oldest output first and saying so in the task\'s activity once written', async () => {
    const database = fullDatabase();
    const { events, written } = watchedRepo(database, { maxQueued: 10 });
    events.append('t', 1, log('started'), '2026-01-01T00:00:00.000Z');
    for (let i = 0; i < 20; i += 1) events.append('t', 1, output(`chunk ${i} ${'x'.repeat(500)}`), '2026-01-01T00:00:00.000Z');
    events.flush();
    expect(events.queued()).toBe(10);
    makeRoom(database);
    await written;
    const stored = events.listForTask('t', { limit: 100 }).map((e) => e.event);
    expect(stored[0]).toEqual(log('started'));
    expect(stored.filter((e) => e.type === 'terminal-output').map((e) => (e as { data: string }).data.split(' ').slice(0, 2).join(' ')))
      .toEqual(Array.from({ length: 9 }, (_, i) => `chunk ${i + 11}`));
    expect(stored.at(-1)).toMatchObject({ type: 'log', level: 'warn', text: expect.stringMatching(/^11 events of this task .* could not be kept while the disk was full/) });
    events.close();
  });
});
