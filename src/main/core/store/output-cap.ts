// The per-task cap on stored output: the first half of the cap is kept as it came, past the cap the oldest
// output after that head is deleted so the newest stays, and one marker row between them counts what went.
import type { TaskEvent } from '../../../shared/events';
import type { Db } from './database';

/** What the cap may do with a row (the events table's `output` column). */
export const OutputRow = { kept: 0, droppable: 1, marker: 2 } as const;

export interface OutputCap {
  /** Call inside the write transaction, after a task's rows of this batch were inserted. */
  added(taskId: string, seq: number, bytes: number): void;
  /** Forgets what it knows about these tasks (their rows were pruned). */
  forget(taskIds?: readonly string[]): void;
}

interface TaskOutput {
  /** Bytes of droppable output stored now. */
  stored: number;
  /** Rows up to this seq are the head, never dropped; undefined while the head is still filling. */
  headEnd: number | undefined;
  dropped: number;
  markerSeq: number | undefined;
}

const DROP_PAGE = 256;

export function createOutputCap(db: Db, repo: string, capBytes: number): OutputCap {
  const headBytes = Math.floor(capBytes / 2);
  const selectOutput = db.prepare<[string, string], { seq: number; size: number; output: number; body: string }>(
    'SELECT seq, size, output, CASE output WHEN 2 THEN body ELSE NULL END AS body FROM events WHERE repo = ? AND task_id = ? AND output > 0 ORDER BY seq');
  const selectOldest = db.prepare<[string, string, number, number], { seq: number; size: number; attempt: number; at: string }>(
    'SELECT seq, size, attempt, at FROM events WHERE repo = ? AND task_id = ? AND seq > ? AND output = 1 ORDER BY seq LIMIT ?');
  const deleteRow = db.prepare<[number]>('DELETE FROM events WHERE seq = ?');
  const insertMarker = db.prepare<[number, string, string, number, string, string]>(
    `INSERT INTO events (seq, repo, task_id, attempt, at, body, size, output) VALUES (?, ?, ?, ?, ?, ?, 0, ${OutputRow.marker})`);
  const known = new Map<string, TaskOutput>();

  /** After a restart the task's rows tell where its head ends and what was dropped. */
  function load(taskId: string): TaskOutput {
    const state: TaskOutput = { stored: 0, headEnd: undefined, dropped: 0, markerSeq: undefined };
    let head = 0;
    for (const row of selectOutput.iterate(repo, taskId)) {
      if (row.output === OutputRow.marker) {
        state.markerSeq = row.seq;
        state.dropped = (JSON.parse(row.body) as { droppedBytes?: number }).droppedBytes ?? 0;
        state.headEnd ??= row.seq - 1;
        continue;
      }
      state.stored += row.size;
      if (state.headEnd === undefined) {
        head += row.size;
        if (head >= headBytes) state.headEnd = row.seq;
      }
    }
    return state;
  }

  function dropOldest(taskId: string, state: TaskOutput, headEnd: number): void {
    let lastDropped: { seq: number; attempt: number; at: string } | undefined;
    while (state.stored > capBytes) {
      const rows = selectOldest.all(repo, taskId, headEnd, DROP_PAGE);
      if (rows.length === 0) break;
      for (const row of rows) {
        if (state.stored <= capBytes) break;
        deleteRow.run(row.seq);
        state.stored -= row.size;
        state.dropped += row.size;
        lastDropped = row;
      }
    }
    if (!lastDropped) return;
    // The marker moves to the newest dropped row's seq: after the head, before everything still stored.
    if (state.markerSeq !== undefined) deleteRow.run(state.markerSeq);
    const marker: TaskEvent = { type: 'output-truncated', droppedBytes: state.dropped };
    insertMarker.run(lastDropped.seq, repo, taskId, lastDropped.attempt, lastDropped.at, JSON.stringify(marker));
    state.markerSeq = lastDropped.seq;
  }

  return {
    added(taskId, seq, bytes) {
      let state = known.get(taskId);
      if (!state) {
        // The row was inserted already, so loading counts it.
        state = load(taskId);
        known.set(taskId, state);
      } else {
        state.stored += bytes;
        if (state.headEnd === undefined && state.stored >= headBytes) state.headEnd = seq;
      }
      if (state.stored > capBytes) dropOldest(taskId, state, state.headEnd ?? seq);
    },
    forget(taskIds) {
      if (!taskIds) known.clear();
      else for (const id of taskIds) known.delete(id);
    },
  };
}
