// How much disk the snapshots and the tasks' layers take: blocks actually allocated (sparse files and hard links as
// they are), each inode counted once, so a task's hard-linked copy of a snapshot's index costs nothing.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { DiskUse } from '../../../shared/disk';
import { isCommitId } from './snapshot-plan';

export interface DiskUseDirs {
  /** `<data dir>/snapshots`. */
  snapshotsDir: string;
  /** Where the tasks' upper layers live, when the desk has them. */
  layersDir?: string;
}

/** Entries of one directory looked at together: enough to keep the disk busy, not so many that memory grows. */
const BATCH = 64;

/** Walks both dirs (snapshots first, so an inode shared with a layer counts as the snapshot's). */
export async function measureDiskUse(dirs: DiskUseDirs): Promise<DiskUse> {
  const seen = new Set<string>();
  const snapshots = await blocksUnder(dirs.snapshotsDir, seen);
  const layers = dirs.layersDir === undefined ? 0 : await blocksUnder(dirs.layersDir, seen);
  let count = 0;
  for (const repo of await names(dirs.snapshotsDir)) count += (await names(join(dirs.snapshotsDir, repo))).filter(isCommitId).length;
  return { snapshotsBytes: snapshots, snapshots: count, layersBytes: layers, totalBytes: snapshots + layers };
}

/** Bytes allocated under `dir` (the dir itself included) to inodes not in `seen`; adds them to it. */
export async function blocksUnder(dir: string, seen: Set<string>): Promise<number> {
  let total = 0;
  const visit = async (path: string): Promise<void> => {
    let info;
    try {
      info = await lstat(path, { bigint: true });
    } catch (error) {
      // Removed while walking (a sweep, a task ending): it takes nothing any more.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const id = `${info.dev}:${info.ino}`;
    if (!seen.has(id)) {
      seen.add(id);
      total += Number(info.blocks) * 512;
    }
    if (!info.isDirectory()) return;
    const entries = await names(path);
    for (let at = 0; at < entries.length; at += BATCH) {
      await Promise.all(entries.slice(at, at + BATCH).map((name) => visit(join(path, name))));
    }
  };
  await visit(dir);
  return total;
}

async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // An unreadable folder (an agent's layer can hold one) is measured as far as it can be.
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES') return [];
    throw error;
  }
}
