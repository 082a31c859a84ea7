// The events table: agent updates and status changes, appended in batches and read back in order. Message
// chunks are stored coalesced, one row per run; output is capped per task; retired tasks' events are pruned.
// A batch the disk has no room for stays queued (bounded) and is written once there is room: never thrown.
import type { EventEnvelope, MessageRun, TaskEvent } from '../../../shared/events';
import { statSync } from 'node:fs';
import type { Db } from './database';
import { createOutputCap, OutputRow } from './output-cap';
import { isDiskFull } from '../host/disk-full';
import { createWriteQueue } from './write-queue';

export interface EventsRepo {
  /**
   * Numbers the event and queues it; it is written with the next batch (within `flushDelayMs`). A message
   * chunk joins the task's open run instead, written as one event when the run ends; the envelope returned
   * (what goes out live) says where in that run the chunk sits.
   */
  append(taskId: string, attempt: number, event: TaskEvent, at: string): EventEnvelope;
  /** Writes every queued event and open run now; when the disk is full they stay queued and are retried. */
  flush(): void;
  /** Events recorded but not yet written (waiting for their batch, or for room on the disk). */
  queued(): number;
  /** A task's events after `after` (exclusive), oldest first. Queued events are flushed first. */
  listForTask(taskId: string, options: { after?: number; limit: number }): EventEnvelope[];
  /** Every task's events after `after`, oldest first (for catching up a socket). */
  listAfter(after: number, limit: number): EventEnvelope[];
  /** The seq of the newest recorded event (0 when none). */
  lastSeq(): number;
  /**
   * Deletes events older than `cutoff` (ISO time) that the board no longer shows: those of tasks rejected
   * before it, of earlier submissions of a resubmitted task, and of tasks that are gone; then gives the space
   * back to the file system. Returns how many events went.
   */
  prune(cutoff: string): number;
  /**
   * Writes what is queued and, when a burst left the write-ahead log large, gives its space back. The log keeps the
   * size of its largest burst until a truncating checkpoint: after an agent's flood that was megabytes beyond the
   * output cap.
   */
  settle(): void;
  /** Flushes and stops the timers. */
  close(): void;
}

export interface EventsRepoOptions {
  flushDelayMs?: number;
  maxBatch?: number;
  /** Output bytes stored per task at most (message text, terminal output); default 50 MB. */
  outputCapBytes?: number;
  /** A run of message chunks is stored once it holds this many characters; default 64 KiB. */
  runChars?: number;
  /** …or once it is this old, so a reload soon shows what is being written; default 1 s. */
  runMaxAgeMs?: number;
  /** Told when a batch could not be written: kept and retried when the disk is full, else dropped. */
  onWriteFailed?(error: unknown, kept: boolean): void;
  /** Told when a batch was written after a failed one (there is room again). */
  onWritten?(): void;
  /** How often a batch the disk had no room for is tried again; default 1 s. */
  retryMs?: number;
  /** Events kept unwritten at most while the disk is full (then the oldest output goes first); default 100,000. */
  maxQueued?: number;
}

export const DEFAULT_OUTPUT_CAP_BYTES = 50 * 1024 * 1024;

interface EventRow { seq: number; task_id: string; attempt: number; at: string; body: string }

/** Chunks of one message run, not yet stored. */
interface OpenRun {
  attempt: number; role: string; messageId: string | undefined;
  from: number; last: number; at: string; parts: string[]; chars: number; timer: NodeJS.Timeout;
}

/**
 * A write-ahead log past this size after a task ends is given back at once (a flood's burst), not at some later write.
 * A burst of 16 MiB or more leaves the log at its full 16 MiB (database.ts keeps it that long): well above this size.
 * Not lower: tasks that end one after another write about 200 KB of log each, and at 1 MiB every sixth or so stopped
 * the desk's thread for a checkpoint with three fsyncs (a CPU profile, 8 tasks at a time: 0.4 ms a task in samples,
 * 2 ms a task of the thread's time, the fsyncs waiting on the disk) and shrank the log only for the next tasks to
 * grow it again. At 4 MiB: one in twenty.
 */
const SETTLE_ABOVE_BYTES = 4 * 1024 * 1024;

export function createEventsRepo(db: Db, repo: string, options: EventsRepoOptions = {}): EventsRepo {
  // An in-memory database has no log file: nothing to give back.
  const walBytes = (): number => (db.memory ? 0 : statSync(`${db.name}-wal`, { throwIfNoEntry: false })?.size ?? 0);
  const flushDelayMs = options.flushDelayMs ?? 20;
  const maxBatch = options.maxBatch ?? 2000;
  const runChars = options.runChars ?? 64 * 1024;
  const runMaxAgeMs = options.runMaxAgeMs ?? 1000;
  const cap = createOutputCap(db, repo, options.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES);
  const insert = db.prepare<[number, string, string, number, string, string, number, number]>(
    'INSERT INTO events (seq, repo, task_id, attempt, at, body, size, output) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const selectForTask = db.prepare<[string, string, number, number], EventRow>(
    'SELECT seq, task_id, attempt, at, body FROM events WHERE repo = ? AND task_id = ? AND seq > ? ORDER BY seq LIMIT ?');
  const selectAfter = db.prepare<[string, number, number], EventRow>(
    'SELECT seq, task_id, attempt, at, body FROM events WHERE repo = ? AND seq > ? ORDER BY seq LIMIT ?');
  // Kept: events of a task on the board from its current submission, unless it was rejected before the cutoff.
  const deleteRetired = db.prepare<{ repo: string; cutoff: string }>(`
    DELETE FROM events WHERE repo = @repo AND at < @cutoff AND NOT EXISTS (
      SELECT 1 FROM tasks t WHERE t.repo = events.repo AND t.id = events.task_id
        AND events.at >= t.submitted_at AND (t.review <> 'rejected' OR t.updated_at >= @cutoff))`);
  // Sequence numbers are global so that several repositories can share one database file.
  let lastSeq = (db.prepare('SELECT COALESCE(MAX(seq), 0) AS last FROM events').get() as { last: number }).last;
  const pending = createWriteQueue(options.maxQueued ?? 100_000);
  let timer: NodeJS.Timeout | undefined;
  // Set while the last write failed for want of space: batches then wait for the retry timer, not for maxBatch.
  let stalled = false;
  const retryMs = options.retryMs ?? 1000;
  const runs = new Map<string, OpenRun>();

  const writeBatch = db.transaction((batch: EventEnvelope[]) => {
    for (const e of batch) {
      const bytes = outputBytes(e.event);
      insert.run(e.seq, repo, e.taskId, e.attempt, e.at, JSON.stringify(e.event), bytes ?? 0, bytes === undefined ? OutputRow.kept : OutputRow.droppable);
      if (bytes !== undefined) cap.added(e.taskId, e.seq, bytes);
    }
  });

  function queue(envelope: EventEnvelope): void {
    pending.push(envelope);
    if (pending.size() >= maxBatch && !stalled) flush();
    else armTimer();
  }

  function armTimer(): void {
    if (timer) return;
    timer = setTimeout(flush, stalled ? retryMs : flushDelayMs);
    // A retry waiting for room must not keep a process alive that has nothing else to do.
    if (stalled) timer.unref();
  }

  /** Ends a task's open run: its text becomes one event, numbered by its last chunk. */
  function closeRun(taskId: string): void {
    const run = runs.get(taskId);
    if (!run) return;
    runs.delete(taskId);
    clearTimeout(run.timer);
    const update = { kind: 'message' as const, role: run.role as 'agent' | 'thought' | 'user', text: run.parts.join(''), ...(run.messageId !== undefined && { messageId: run.messageId }) };
    queue({ seq: run.last, taskId, attempt: run.attempt, at: run.at, event: { type: 'agent', update, run: { from: run.from, offset: 0 } } });
  }

  function closeRuns(): void {
    for (const taskId of [...runs.keys()]) closeRun(taskId);
  }

  function flush(): void {
    closeRuns();
    if (timer) clearTimeout(timer);
    timer = undefined;
    // An agent still talking while the desk shuts down: its last events went out live, but the database is closed.
    if (pending.size() === 0 || !db.open) return;
    const batch = pending.take();
    try {
      writeBatch([...batch, ...pending.notes(() => ++lastSeq)]);
      pending.noted();
    } catch (error) {
      // The rows of the failed batch were rolled back, so what the cap counted for them is reloaded from the table.
      cap.forget();
      const kept = isDiskFull(error);
      if (kept) {
        pending.putBack(batch);
        stalled = true;
        armTimer();
      }
      options.onWriteFailed?.(error, kept);
      return;
    }
    if (stalled) {
      stalled = false;
      options.onWritten?.();
      // What came in while waiting may be more than one batch: the rest follows at once.
      if (pending.size() > 0) armTimer();
    }
  }

  /** `rows` read from the table plus the task's events still queued, in order, at most `limit`. */
  function withQueued(rows: EventEnvelope[], matches: (e: EventEnvelope) => boolean, limit: number): EventEnvelope[] {
    const queued = pending.list().filter(matches);
    if (queued.length === 0) return rows;
    return [...rows, ...queued].sort((a, b) => a.seq - b.seq).slice(0, limit);
  }

  function appendChunk(taskId: string, attempt: number, update: Extract<TaskEvent, { type: 'agent' }>['update'] & { kind: 'message' }, at: string): EventEnvelope {
    let run = runs.get(taskId);
    if (run && (run.attempt !== attempt || run.role !== update.role || run.messageId !== update.messageId)) {
      closeRun(taskId);
      run = undefined;
    }
    const seq = ++lastSeq;
    if (!run) {
      run = { attempt, role: update.role, messageId: update.messageId, from: seq, last: seq, at, parts: [], chars: 0, timer: setTimeout(() => closeRun(taskId), runMaxAgeMs) };
      runs.set(taskId, run);
    }
    const place: MessageRun = { from: run.from, offset: run.chars };
    run.parts.push(update.text);
    run.chars += update.text.length;
    run.last = seq;
    if (run.chars >= runChars) closeRun(taskId);
    return { seq, taskId, attempt, at, event: { type: 'agent', update, run: place } };
  }

  return {
    append(taskId, attempt, event, at) {
      if (event.type === 'agent' && event.update.kind === 'message') return appendChunk(taskId, attempt, event.update, at);
      // Anything else the task does ends its run, so stored events keep the order they happened in.
      closeRun(taskId);
      lastSeq += 1;
      const envelope: EventEnvelope = { seq: lastSeq, taskId, attempt, at, event };
      queue(envelope);
      return envelope;
    },
    flush,
    listForTask(taskId, { after = 0, limit }) {
      flush();
      // While the disk is full the newest events wait in memory; readers see them all the same.
      return withQueued(selectForTask.all(repo, taskId, after, limit).map(fromRow), (e) => e.taskId === taskId && e.seq > after, limit);
    },
    listAfter(after, limit) {
      flush();
      return withQueued(selectAfter.all(repo, after, limit).map(fromRow), (e) => e.seq > after, limit);
    },
    lastSeq: () => lastSeq,
    queued: () => pending.size() + [...runs.values()].reduce((sum, run) => sum + run.parts.length, 0),
    settle() {
      flush();
      // A checkpoint syncs the database file, on the desk's one thread: every task ending paid it, though after most
      // tasks the log holds a few pages that the automatic checkpoint takes in time (journal_size_limit bounds it).
      if (walBytes() < SETTLE_ABOVE_BYTES) return;
      // Inside a group commit the checkpoint cannot finish; the next task to end does it. A checkpoint may need room
      // the disk does not have: the log then keeps its size until a later one.
      if (db.inTransaction || stalled) return;
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
      } catch (error) {
        options.onWriteFailed?.(error, isDiskFull(error));
      }
    },
    prune(cutoff) {
      flush();
      const deleted = deleteRetired.run({ repo, cutoff }).changes;
      if (deleted > 0) {
        cap.forget();
        db.exec('PRAGMA incremental_vacuum');
        // The freed pages leave the file when the WAL is checkpointed; do it now rather than at some later write
        // (unless a group commit is open: a checkpoint cannot finish inside a transaction, the next prune does it).
        if (!db.inTransaction) db.pragma('wal_checkpoint(TRUNCATE)');
      }
      return deleted;
    },
    close: flush,
  };
}

/** The output bytes an event stores, or undefined when it is not output the cap may drop. */
function outputBytes(event: TaskEvent): number | undefined {
  if (event.type === 'agent' && event.update.kind === 'message') return Buffer.byteLength(event.update.text);
  if (event.type === 'terminal-output') return Buffer.byteLength(event.data);
  return undefined;
}

function fromRow(row: EventRow): EventEnvelope {
  return { seq: row.seq, taskId: row.task_id, attempt: row.attempt, at: row.at, event: JSON.parse(row.body) as TaskEvent };
}
