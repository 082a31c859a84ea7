// The events table: agent updates and status changes, appended in batches and read back in order.
import type { EventEnvelope, TaskEvent } from '../../../shared/events';
import type { Db } from './database';

export interface EventsRepo {
  /** Numbers the event and queues it; it is written with the next batch (within `flushDelayMs`). */
  append(taskId: string, attempt: number, event: TaskEvent, at: string): EventEnvelope;
  /** Writes every queued event now. */
  flush(): void;
  /** A task's events after `after` (exclusive), oldest first. Queued events are flushed first. */
  listForTask(taskId: string, options: { after?: number; limit: number }): EventEnvelope[];
  /** Every task's events after `after`, oldest first (for catching up a socket). */
  listAfter(after: number, limit: number): EventEnvelope[];
  /** The seq of the newest recorded event (0 when none). */
  lastSeq(): number;
  /** Flushes and stops the timer. */
  close(): void;
}

interface EventRow { seq: number; task_id: string; attempt: number; at: string; body: string }

export function createEventsRepo(db: Db, repo: string, options: { flushDelayMs?: number; maxBatch?: number } = {}): EventsRepo {
  const flushDelayMs = options.flushDelayMs ?? 20;
  const maxBatch = options.maxBatch ?? 2000;
  const insert = db.prepare('INSERT INTO events (seq, repo, task_id, attempt, at, body) VALUES (?, ?, ?, ?, ?, ?)');
  const selectForTask = db.prepare<[string, string, number, number], EventRow>(
    'SELECT seq, task_id, attempt, at, body FROM events WHERE repo = ? AND task_id = ? AND seq > ? ORDER BY seq LIMIT ?');
  const selectAfter = db.prepare<[string, number, number], EventRow>(
    'SELECT seq, task_id, attempt, at, body FROM events WHERE repo = ? AND seq > ? ORDER BY seq LIMIT ?');
  // Sequence numbers are global so that several repositories can share one database file.
  let lastSeq = (db.prepare('SELECT COALESCE(MAX(seq), 0) AS last FROM events').get() as { last: number }).last;
  let pending: EventEnvelope[] = [];
  let timer: NodeJS.Timeout | undefined;

  const writeBatch = db.transaction((batch: EventEnvelope[]) => {
    for (const e of batch) insert.run(e.seq, repo, e.taskId, e.attempt, e.at, JSON.stringify(e.event));
  });

  function flush(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    writeBatch(batch);
  }

  return {
    append(taskId, attempt, event, at) {
      lastSeq += 1;
      const envelope: EventEnvelope = { seq: lastSeq, taskId, attempt, at, event };
      pending.push(envelope);
      if (pending.length >= maxBatch) flush();
      else if (!timer) timer = setTimeout(flush, flushDelayMs);
      return envelope;
    },
    flush,
    listForTask(taskId, { after = 0, limit }) {
      flush();
      return selectForTask.all(repo, taskId, after, limit).map(fromRow);
    },
    listAfter(after, limit) {
      flush();
      return selectAfter.all(repo, after, limit).map(fromRow);
    },
    lastSeq: () => lastSeq,
    close: flush,
  };
}

function fromRow(row: EventRow): EventEnvelope {
  return { seq: row.seq, taskId: row.task_id, attempt: row.attempt, at: row.at, event: JSON.parse(row.body) as TaskEvent };
}
