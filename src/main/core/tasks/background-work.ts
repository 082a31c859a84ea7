// Work a task service starts and does not wait for (keeping an attempt, retiring the others, discarding a judge): kept
// track of, so that the desk's shutdown waits for it rather than leave it writing to a database or a repository the
// desk has closed, and so that a failure of it is told rather than left as an unhandled rejection.

export interface BackgroundWork {
  /** Starts `work` now; what it throws goes to `failed` (itself never allowed to throw past here). */
  run(work: () => Promise<unknown>, failed: (message: string) => void): void;
  /** Resolves once everything started (including what that work starts meanwhile) has ended. */
  settled(): Promise<void>;
}

export function createBackgroundWork(): BackgroundWork {
  const pending = new Set<Promise<unknown>>();
  return {
    run(work, failed) {
      // Through a promise, so that a `work` that throws before its first await is told the same way.
      const running = Promise.resolve().then(work).catch((error: unknown) => {
        try {
          failed(error instanceof Error ? error.message : String(error));
        } catch {
          // Nowhere left to tell (the desk's records closed): the work is over either way.
        }
      });
      pending.add(running);
      void running.finally(() => pending.delete(running));
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
