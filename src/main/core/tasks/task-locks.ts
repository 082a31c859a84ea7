// One task's operations one after another: a submission, a cancel and a follow-up of the same id never interleave.

/** Runs `work` after every earlier operation on the same task id has finished (whether it succeeded or not). */
export type TaskLock = <T>(id: string, work: () => Promise<T>) => Promise<T>;

export function createTaskLock(): TaskLock {
  const locks = new Map<string, Promise<unknown>>();
  return (id, work) => {
    const next = (locks.get(id) ?? Promise.resolve()).then(work, work);
    const settled = next.catch(() => undefined);
    locks.set(id, settled);
    // The last operation of an id takes its entry with it, so ids that are done with leave nothing behind.
    void settled.then(() => { if (locks.get(id) === settled) locks.delete(id); });
    return next;
  };
}
