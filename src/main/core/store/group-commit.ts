// Group commit: writes that arrive in the same turn of the event loop share one SQLite transaction.
//
// A commit is most of what a submission costs, and clients send many at once: the requests read in one
// poll phase of the event loop are written as they come (each in its own savepoint, so later checks see
// them and one failing write undoes only itself) and committed together in the check phase right after.
// Each caller's promise settles only after that commit, so nobody is told "stored" before it is durable.
import type { Db } from './database';

export interface GroupCommit {
  /** Runs `work` now as one all-or-nothing unit; resolves with its result once it is committed. */
  write<T>(work: () => T): Promise<T>;
  /** Commits whatever is pending now (shutdown does this before closing the database). */
  flush(): void;
}

export interface GroupCommitOptions {
  /** When the open transaction is committed; the check phase of this turn by default. */
  later?: (commit: () => void) => void;
  /** Told when a commit failed (the writes in it are rolled back and their callers get the error). */
  onFailedCommit?: (error: unknown) => void;
}

interface Waiter { resolve(): void; reject(error: unknown): void }

export function createGroupCommit(db: Db, options: GroupCommitOptions = {}): GroupCommit {
  const later = options.later ?? ((commit: () => void) => void setImmediate(commit));
  let waiters: Waiter[] | undefined;
  // One wrapper for every write: better-sqlite3 builds five statements for each one it makes.
  const inSavepoint = db.transaction((work: () => unknown) => work());

  function flush(): void {
    const batch = waiters;
    if (!batch) return;
    waiters = undefined;
    try {
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      for (const waiter of batch) waiter.reject(error);
      options.onFailedCommit?.(error);
      return;
    }
    for (const waiter of batch) waiter.resolve();
  }

  return {
    write<T>(work: () => T): Promise<T> {
      // Someone else's transaction is open (a synchronous one cannot be, so this is a caller inside one):
      // joining it as a savepoint keeps its all-or-nothing promise, and it commits when that one does.
      if (!waiters && !db.inTransaction) {
        db.exec('BEGIN');
        waiters = [];
        later(flush);
      }
      let result: T;
      try {
        // Nested inside the open transaction, better-sqlite3 makes this a savepoint.
        result = inSavepoint(work) as T;
      } catch (error) {
        return Promise.reject(error);
      }
      const batch = waiters;
      if (!batch) return Promise.resolve(result);
      return new Promise<T>((resolve, reject) => batch.push({ resolve: () => resolve(result), reject }));
    },
    flush,
  };
}
