// A per-repository queue: repository-wide git operations (worktree add/remove/prune, branch and ref
// updates) run one at a time, because concurrent ones contend for the same lock files in .git.

export interface Mutex {
  /** Runs `task` after every task queued before it has settled; resolves or rejects with it. */
  run<T>(task: () => Promise<T>): Promise<T>;
}

export function createMutex(): Mutex {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      const result = tail.then(task);
      // One failed task must not block the queue behind it.
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
