// Output with bounds, end to end with real SQLite and the real scripted agent: message chunks go out live one
// by one but are stored as one event per run, a board replaying stored events after live ones shows the text
// once, a task's stored output is capped with a marker and its tail kept, and retired tasks' events are pruned.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { EventEnvelope, EventsMessage, TaskEvent } from '../../../shared/events';
import { appendToStream, createStream, type TaskStream } from '../../../renderer/src/state/task-stream';
import { desksPerTest, taskEvents, TEST_TOKEN, type Desk } from '../test-support/desk-harness';

const openDesk = desksPerTest();

const MiB = 1024 * 1024;

function collect(socket: WebSocket, done: (events: EventEnvelope[]) => boolean): Promise<EventEnvelope[]> {
  const events: EventEnvelope[] = [];
  return new Promise((resolve, reject) => {
    socket.on('message', (data) => {
      events.push(...(JSON.parse(String(data)) as EventsMessage).events);
      if (done(events)) resolve(events);
    });
    socket.on('error', reject);
  });
}

const socketTo = (desk: Desk, after?: number) => new WebSocket(`${desk.url.replace('http', 'ws')}/api/events${after !== undefined ? `?after=${after}` : ''}`, {
  headers: { authorization: `Bearer ${TEST_TOKEN}` },
});
const opened = (socket: WebSocket) => new Promise<void>((resolve, reject) => { socket.once('open', () => resolve()); socket.once('error', reject); });
const finished = (id: string) => (events: EventEnvelope[]) => events.some((e) => e.taskId === id && e.event.type === 'task' && e.event.task.status === 'completed');
const isMessage = (e: EventEnvelope) => e.event.type === 'agent' && e.event.update.kind === 'message' && e.event.update.role === 'agent';
const textOf = (stream: TaskStream) => stream.items.flatMap((item) => (item.kind === 'message' && item.role === 'agent' ? [item.text] : [])).join('');
const dbBytes = (dataDir: string) => ['desk.sqlite', 'desk.sqlite-wal'].reduce((sum, name) => {
  try { return sum + statSync(join(dataDir, name)).size; } catch { return sum; }
}, 0);

describe('message chunks', () => {
  it('go out live one by one, are stored as one event per run, and replay after live ones without showing text twice', async () => {
    const desk = await openDesk();
    const socket = socketTo(desk);
    await opened(socket);
    const live = collect(socket, finished('chunks'));
    await desk.api('POST', '/', { id: 'chunks', prompt: 'spew 200k 1k' });
    const liveChunks = (await live).filter((e) => e.taskId === 'chunks' && isMessage(e));
    socket.close();
    expect(liveChunks).toHaveLength(200);
    const whole = liveChunks.map((e) => (e.event as Extract<TaskEvent, { type: 'agent' }>).update).map((u) => (u.kind === 'message' ? u.text : '')).join('');
    expect(whole).toHaveLength(200 * 1024);

    const stored = (await desk.api('GET', '/api/tasks/chunks/events?limit=5000')).json.events as EventEnvelope[];
    const storedMessages = stored.filter(isMessage);
    // 64 KiB runs: 200 KiB of text is four stored events, not two hundred.
    expect(storedMessages.length).toBeGreaterThanOrEqual(1);
    // A run also ends after 1 s, so a slow machine stores a few more; never anything like one per chunk.
    expect(storedMessages.length).toBeLessThanOrEqual(20);

    // A board that loads the history shows the text once, in order.
    const fresh = createStream();
    appendToStream(fresh, stored);
    expect(textOf(fresh)).toBe(whole);

    // A board that saw the first 100 chunks live, then reconnects and gets the rest replayed from the store.
    const midway = liveChunks[99] as EventEnvelope;
    const board = createStream();
    appendToStream(board, (await live).filter((e) => e.taskId === 'chunks' && e.seq <= midway.seq));
    const again = socketTo(desk, midway.seq);
    const replayed = await collect(again, finished('chunks'));
    again.close();
    appendToStream(board, replayed.filter((e) => e.taskId === 'chunks'));
    expect(textOf(board)).toBe(whole);
  });
});

describe('a task whose agent writes past the output cap', () => {
  it('completes, keeps the start and the tail with a marker counting what was dropped, and the database stays near the cap', async () => {
    const cap = 1 * MiB;
    const desk = await openDesk({ output: { capBytes: cap } });
    await desk.api('POST', '/', { id: 'warmup', prompt: 'say hello' });
    await desk.waitForStatus('warmup', 'completed');
    desk.core.events.flush();
    const before = dbBytes(desk.dataDir);

    await desk.api('POST', '/', { id: 'loud', prompt: 'spew 20m 4k\nsay THE END' });
    expect(await desk.waitForStatus('loud', ['completed', 'error'], 120_000)).toBe('completed');
    const events = await taskEvents(desk, 'loud');
    const marker = events.find((e) => e.type === 'output-truncated');
    const text = events.flatMap((e) => (e.type === 'agent' && e.update.kind === 'message' && e.update.role === 'agent' ? [e.update.text] : []));
    const kept = text.reduce((sum, t) => sum + t.length, 0);
    expect(marker).toEqual({ type: 'output-truncated', droppedBytes: 20 * MiB + 'THE END'.length - kept });
    expect(kept).toBeLessThanOrEqual(cap);
    expect(kept).toBeGreaterThan(cap * 0.9);
    expect(text[0]?.startsWith('<1>')).toBe(true);
    const all = text.join('');
    expect(all.endsWith('THE END')).toBe(true);
    expect(all.includes(`<${(20 * MiB) / 4096}>`)).toBe(true);
    // The marker sits where the output was cut: after the head, before the tail.
    const markerAt = events.indexOf(marker as TaskEvent);
    expect(events.slice(0, markerAt).some((e) => e.type === 'agent')).toBe(true);
    expect(events.slice(markerAt + 1).some((e) => e.type === 'agent')).toBe(true);

    const db = new Database(join(desk.dataDir, 'desk.sqlite'), { readonly: true });
    const pages = (name: string) => (db.prepare('SELECT count(*) AS n FROM dbstat WHERE name = ?').get(name) as { n: number }).n;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const eventsBytes = pages('events') * pageSize;
    const turnsBytes = pages('task_turns') * pageSize;
    db.close();
    // The events table holds the cap and little more; pages the cap freed were reused, not added.
    expect(eventsBytes).toBeLessThanOrEqual(cap * 1.1);
    // The file: the cap + 10%, plus the turn's record (the runner keeps the last 100,000 characters of what the
    // agent said) and a few pages of schema. The task's end gave the write-ahead log back.
    expect(turnsBytes).toBeLessThanOrEqual(100_000 + 64 * 1024);
    expect(statSync(join(desk.dataDir, 'desk.sqlite')).size - before).toBeLessThanOrEqual(cap * 1.1 + 100_000 + 128 * 1024);
    expect(statSync(join(desk.dataDir, 'desk.sqlite-wal')).size).toBeLessThan(64 * 1024);
    expect(dbBytes(desk.dataDir) - before).toBeLessThanOrEqual(cap * 1.1 + 100_000 + 192 * 1024);
  }, 180_000);
});

describe('retention', () => {
  it('prunes a rejected task\'s events after the retention days, gives the space back, and keeps a task on the board', async () => {
    let clock = new Date('2030-01-01T00:00:00Z').getTime();
    const now = () => new Date(clock);
    const desk = await openDesk({ now, output: { retentionDays: 7 } });
    await desk.api('POST', '/', { id: 'kept', prompt: 'say still on the board' });
    await desk.api('POST', '/', { id: 'gone', prompt: 'spew 2m 4k' });
    await desk.waitForStatus('kept', 'completed');
    await desk.waitForStatus('gone', 'completed', 60_000);
    expect((await desk.api('POST', '/tasks/gone/reject')).status).toBe(200);
    await desk.close();

    const path = join(desk.dataDir, 'desk.sqlite');
    const sizeBefore = statSync(path).size;
    clock += 8 * 24 * 60 * 60 * 1000;
    // The desk prunes when it starts (and every few hours after).
    const later = await openDesk({ now, output: { retentionDays: 7 }, reuse: { root: desk.root, repo: desk.repo, dataDir: desk.dataDir } });
    expect(await taskEvents(later, 'gone')).toEqual([]);
    expect((await taskEvents(later, 'kept')).some((e) => e.type === 'agent')).toBe(true);
    await later.close();

    const db = new Database(path, { readonly: true });
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(2);
    expect(db.pragma('freelist_count', { simple: true })).toBeLessThan(16);
    db.close();
    expect(statSync(path).size).toBeLessThan(sizeBefore - 1.5 * MiB);
  }, 120_000);
});
