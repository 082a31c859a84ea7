// Archiving finished tasks: hidden from the board, kept in the database with their branches and history; a new run
// (resubmission, follow-up, re-run) brings the task back. The rules that decide are in src/shared/archive-rules.ts.
import { isSettled, mayArchive } from '../../../shared/archive-rules';
import type { TaskSummary } from '../../../shared/task';
import type { TaskPatch, TaskRecord } from '../store/tasks-repo';
import { isActive } from './task-state';
import { taskBusy } from './task-errors';

export interface TaskArchive {
  /** Archives a finished task (again: no change). Throws `task_busy` while it is queued or runs. */
  archive(id: string): Promise<TaskRecord>;
  /** Puts an archived task back on the board (not archived: no change). */
  unarchive(id: string): Promise<TaskRecord>;
}

export interface TaskArchiveDeps {
  mustGet(id: string): TaskRecord;
  save(id: string, patch: TaskPatch): TaskRecord;
  log(task: TaskRecord, text: string): void;
  withTaskLock<T>(id: string, work: () => Promise<T>): Promise<T>;
  now(): Date;
}

export function createTaskArchive(deps: TaskArchiveDeps): TaskArchive {
  return {
    archive(id) {
      return deps.withTaskLock(id, async () => {
        const task = deps.mustGet(id);
        if (task.archivedAt !== undefined) return task;
        if (!mayArchive(task)) throw taskBusy(`Task ${id} is ${task.status}; only a finished task can be archived.`);
        const archived = deps.save(id, { archivedAt: deps.now().toISOString() });
        deps.log(archived, 'Archived: hidden from the board, kept with its branch and history.');
        return archived;
      });
    },
    unarchive(id) {
      return deps.withTaskLock(id, async () => {
        const task = deps.mustGet(id);
        if (task.archivedAt === undefined) return task;
        const restored = deps.save(id, { archivedAt: null });
        deps.log(restored, 'Back on the board.');
        return restored;
      });
    },
  };
}

/** A write that starts the task again (queued or running) also takes it out of the archive. */
export function unarchivedWhenActive(patch: TaskPatch): TaskPatch {
  return patch.status && isActive(patch.status) && patch.archivedAt === undefined ? { ...patch, archivedAt: null } : patch;
}

/** Archives every settled task (see `isSettled`), one after another; answers the ids it archived. */
export async function clearDone(tasks: { list(): TaskSummary[]; archive(id: string): Promise<unknown> }): Promise<string[]> {
  const archived: string[] = [];
  for (const task of tasks.list().filter(isSettled)) {
    try {
      await tasks.archive(task.id);
      archived.push(task.id);
    } catch {
      // It started again meanwhile (a follow-up, a resubmission): it stays on the board, as it should.
    }
  }
  return archived;
}
