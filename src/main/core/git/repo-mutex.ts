// A per-repository queue: repository-wide git operations (worktree remove/prune, branch and ref updates) run one at a
// time, because concurrent ones contend for the same lock files in .git. New worktrees for new tasks are the exception:
// git makes each in its own places (its branch, its worktrees/<name>), so they may be added side by side.

export interface Mutex {
  /** Runs `task` alone: after every task queued before it has settled; resolves or rejects with it. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Runs `task` alongside other shared tasks, but never alongside one of `run`'s: after those queued before it. */
  shared<T>(task: () => Promise<T>): Promise<T>;
}

export function createMutex(): Mutex {
  // The last exclusive task, and every shared one started since.
  let tail: Promise<unknown> = Promise.resolve();
  let sharedSince: Promise<unknown> | undefined;
  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      const result = (sharedSince ? Promise.all([tail, sharedSince]) : tail).then(task);
      // One failed task must not block the queue behind it.
      tail = result.catch(() => undefined);
      sharedSince = undefined;
      return result;
    },
    shared<T>(task: () => Promise<T>): Promise<T> {
      const result = tail.then(task);
      const settled = result.catch(() => undefined);
      sharedSince = sharedSince ? Promise.all([sharedSince, settled]) : settled;
      return result;
    },
  };
}
