// What this desk made in git for each task: the branch it created and the worktree it added with its
// git dir. Kept in the desk's data dir (out of an agent's reach), one small JSON file per task, so the
// desk deletes only branches it made and names a worktree's git dir without asking the worktree.
// Read and written with blocking calls: a file of a few hundred bytes, asked for and written on every task's way to its
// start, takes microseconds where the file system is quick, where each trip through the thread pool costs a few hundred.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { worktreeDirNameFor } from './branch-names';

export interface WorktreeRecord {
  taskId: string;
  /** The branch this desk created for the task (`worktree add -b`). */
  branch: string;
  /** The worktree's files. */
  path: string;
  /**
   * The worktree's git dir (`<common dir>/worktrees/<name>`): before the worktree exists, the one git is expected to
   * give it (../git/expected-git-dir.ts); once it exists, the one git wrote into `<path>/.git`. Absent in records of
   * earlier desks made before the worktree existed. Every use checks it both ways first (./worktree-guard.ts).
   */
  gitDir?: string;
}

export interface WorktreeRecords {
  get(taskId: string): Promise<WorktreeRecord | undefined>;
  /** The record of the task whose worktree is `path`, if this desk made one there. */
  atPath(path: string): Promise<WorktreeRecord | undefined>;
  put(record: WorktreeRecord): Promise<void>;
  remove(taskId: string): Promise<void>;
}

/** Records kept in memory after they are written, newest last. */
const KEPT_RECORDS = 256;

export function createWorktreeRecords(dir: string): WorktreeRecords {
  const fileOf = (dirName: string) => join(dir, `${dirName}.json`);
  // What this desk wrote, kept as written: one desk holds a data dir at a time (../host/instance-lock.ts), so a record
  // it wrote is read back from memory (every turn's commit asks) and only others are read from their files.
  const written = new Map<string, WorktreeRecord>();
  const read = async (dirName: string): Promise<WorktreeRecord | undefined> => {
    const kept = written.get(dirName);
    if (kept) return { ...kept };
    let text: string;
    try {
      text = readFileSync(fileOf(dirName), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    return JSON.parse(text) as WorktreeRecord;
  };
  return {
    get: async (taskId) => {
      const record = await read(worktreeDirNameFor(taskId));
      return record?.taskId === taskId ? record : undefined;
    },
    atPath: async (path) => {
      const dirName = path.split(/[\\/]/).filter(Boolean).at(-1) ?? '';
      const record = await read(dirName);
      return record?.path === path ? record : undefined;
    },
    async put(record) {
      // Written whole, then renamed over: a crash never leaves half a record.
      const file = fileOf(worktreeDirNameFor(record.taskId));
      const text = `${JSON.stringify(record, null, 2)}\n`;
      // The folder is made on the first write (and again should it be deleted), not asked for before every one.
      try {
        writeFileSync(`${file}.tmp`, text);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        mkdirSync(dir, { recursive: true });
        writeFileSync(`${file}.tmp`, text);
      }
      renameSync(`${file}.tmp`, file);
      written.set(worktreeDirNameFor(record.taskId), { ...record });
      // Running tasks' records are the ones asked for again: older ones go back to being read from their files.
      if (written.size > KEPT_RECORDS) written.delete(written.keys().next().value as string);
    },
    async remove(taskId) {
      written.delete(worktreeDirNameFor(taskId));
      rmSync(fileOf(worktreeDirNameFor(taskId)), { force: true });
    },
  };
}
