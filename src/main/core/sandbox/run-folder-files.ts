// The file operations that make and remove a run's folder (its git dir, sockets, state scratch). On a memory file
// system each is done synchronously: there it takes microseconds, while a trip through libuv's thread pool costs the
// desk's thread a wake-up, a callback and a promise, a few dozen times per run. On a disk they stay off the event loop.
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { copyFile, lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import { readPlainSync } from '../git/plain-file';
import { removeSmallTreeNow, removeTree } from './remove-tree';

/** Read on the desk's thread up to this size; a larger file (an agent's packed-refs, say) is read off it. */
const READ_NOW_MAX_BYTES = 1024 * 1024;

/** What ../git/task-git-dir.ts and the sandbox need to fill and empty a run's folder. */
export interface RunFolderFiles {
  mkdir(path: string, options?: { mode?: number }): Promise<void>;
  writeFile(path: string, text: string): Promise<void>;
  /** Copies `from` when it exists; a missing `from` is no error. */
  copyIfThere(from: string, to: string): Promise<void>;
  /**
   * The text of `path` when it is a plain file, else undefined: a link to /dev/zero or a FIFO an agent planted in its
   * git dir would otherwise keep the desk reading.
   */
  readPlainFile(path: string): Promise<string | undefined>;
  /** Removes `path` and all it holds, never following a link; a missing `path` is no error. */
  removeTree(path: string): Promise<void>;
}

/** Folders on a disk: every operation through the thread pool, so a slow disk never holds the desk's thread. */
export const diskFolderFiles: RunFolderFiles = {
  mkdir: async (path, options) => { await mkdir(path, { recursive: true, ...options }); },
  writeFile: (path, text) => writeFile(path, text),
  copyIfThere: (from, to) => copyFile(from, to).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  }),
  async readPlainFile(path) {
    const info = await lstat(path).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    return readFile(path, 'utf8').catch(() => undefined);
  },
  removeTree,
};

/**
 * Folders on a memory file system: done on the desk's thread at once. A copy's source may be on a disk (the worktree's
 * index, the repository's info files): small files git has just written or read, so in the page cache.
 */
export const memoryFolderFiles: RunFolderFiles = {
  mkdir: async (path, options) => { mkdirSync(path, { recursive: true, ...options }); },
  writeFile: async (path, text) => { writeFileSync(path, text); },
  async copyIfThere(from, to) {
    // Most of the files copied are absent in most runs: asking first spares an error object for each.
    if (!existsSync(from)) return;
    try {
      copyFileSync(from, to);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  },
  async readPlainFile(path) {
    // Opened without following a link and without waiting on a FIFO, then checked to be a file: nothing swapped in
    // between a look and the read can hold the desk's thread.
    const text = readPlainSync(path, READ_NOW_MAX_BYTES);
    if (text === 'missing') return undefined;
    return text === 'odd' ? diskFolderFiles.readPlainFile(path) : text;
  },
  removeTree: (path) => removeSmallTreeNow(path),
};
