// Task and turn writes that wait for room: when the data dir's disk is full, a status change is kept in memory (what
// clients read) and written, in order, once there is room, so a task can still end in error and the desk stays up.
import type { Db } from './database';
import { isDiskFull } from '../host/disk-full';
import type { TaskPatch, TaskRecord, TasksRepo } from './tasks-repo';
import type { TurnPatch, TurnRecord, TurnsRepo } from './turns-repo';
import { withChanges } from '../with-changes';

export interface DeferredWrites {
  /**
   * Runs `write` now, or queues it when the disk is full or earlier writes still wait (their order is kept).
   * Returns whether it ran. Errors other than a full disk are thrown as before.
   */
  run(write: () => void): boolean;
  /** Writes still waiting for room. */
  waiting(): number;
  stop(): void;
}

export interface DeferredWritesOptions {
  /** A write failed for want of space (called at each failure). */
  onFull(error: unknown): void;
  /** Every waiting write got through. */
  onWritten(): void;
  /** A waiting write failed for another reason when tried again; it is given up. */
  onDropped(error: unknown): void;
  retryMs?: number;
}

export function createDeferredWrites(db: Db, options: DeferredWritesOptions): DeferredWrites {
  const queue: (() => void)[] = [];
  let timer: NodeJS.Timeout | undefined;

  function retryLater(): void {
    timer ??= setTimeout(drain, options.retryMs ?? 1000);
    timer.unref();
  }

  function drain(): void {
    timer = undefined;
    if (!db.open) return;
    while (queue.length > 0) {
      try {
        (queue[0] as () => void)();
      } catch (error) {
        if (isDiskFull(error)) {
          options.onFull(error);
          retryLater();
          return;
        }
        // A write that can never succeed must not hold back the ones behind it (nor end the desk from a timer).
        queue.shift();
        options.onDropped(error);
        continue;
      }
      queue.shift();
    }
    options.onWritten();
  }

  return {
    run(write) {
      if (queue.length === 0) {
        // Inside a transaction a full disk is its committer's to handle (it rolls back all of it), not a write to redo.
        if (db.inTransaction) {
          write();
          return true;
        }
        try {
          write();
          return true;
        } catch (error) {
          if (!isDiskFull(error)) throw error;
          options.onFull(error);
        }
      }
      queue.push(write);
      retryLater();
      return false;
    },
    waiting: () => queue.length,
    stop() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** The tasks repo whose updates wait for room; an update that waits answers with the record as it will be. */
export function deferringTasks(tasks: TasksRepo, writes: DeferredWrites): TasksRepo {
  // The record as last changed, for tasks whose changes wait (the table lags behind them).
  const ahead = new Map<string, TaskRecord>();
  const get = (id: string) => {
    if (writes.waiting() === 0) ahead.clear();
    return ahead.get(id) ?? tasks.get(id);
  };
  return {
    ...tasks,
    get,
    update(id, patch) {
      let updated: TaskRecord | undefined;
      // The record before is needed only when the write waits, and a write that waits left the table as it was: it is
      // read then, not before every update (the update reads the row it wrote anyway).
      const waitingAhead = writes.waiting() === 0 ? (ahead.clear(), undefined) : ahead.get(id);
      if (writes.run(() => { updated = tasks.update(id, patch); })) return updated as TaskRecord;
      const before = waitingAhead ?? tasks.get(id);
      if (!before) throw new Error(`No task ${id} to update`);
      const later = applyPatch(before, patch);
      ahead.set(id, later);
      return later;
    },
  };
}

/** The turns repo whose writes wait for room; reads see a waiting turn as it will be. */
export function deferringTurns(turns: TurnsRepo, writes: DeferredWrites): TurnsRepo {
  const ahead = new Map<string, TurnRecord>();
  const keep = (record: TurnRecord) => { ahead.set(record.taskId, record); return record; };
  const latest = (taskId: string) => {
    if (writes.waiting() === 0) ahead.clear();
    return ahead.get(taskId) ?? turns.latest(taskId);
  };
  return {
    ...turns,
    startOver(taskId, prompt, agent, at) {
      let made: TurnRecord | undefined;
      if (writes.run(() => { made = turns.startOver(taskId, prompt, agent, at); })) { ahead.delete(taskId); return made as TurnRecord; }
      return keep({ taskId, turn: 1, prompt, agent, status: 'pending', requestedAt: at });
    },
    add(taskId, prompt, agent, at) {
      let made: TurnRecord | undefined;
      const turn = (latest(taskId)?.turn ?? 0) + 1;
      if (writes.run(() => { made = turns.add(taskId, prompt, agent, at); })) { ahead.delete(taskId); return made as TurnRecord; }
      return keep({ taskId, turn, prompt, agent, status: 'pending', requestedAt: at });
    },
    latest,
    update(taskId, turn, patch: TurnPatch) {
      if (writes.run(() => turns.update(taskId, turn, patch))) return;
      const known = latest(taskId);
      if (known?.turn === turn) keep({ ...known, ...patch });
    },
  };
}

/** `record` with `patch` applied as the table would: undefined leaves a field, null clears it. */
function applyPatch(record: TaskRecord, patch: TaskPatch): TaskRecord {
  const changed: Record<string, unknown> = { ...withChanges(record, {}) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete changed[key];
    else if (value !== undefined) changed[key] = value;
  }
  return changed as unknown as TaskRecord;
}
