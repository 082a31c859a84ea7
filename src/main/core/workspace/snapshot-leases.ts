// Which tasks use a snapshot, kept as one small file per task in the snapshot's `leases/` folder: it survives a
// restart, moves and goes with the snapshot, and taking or dropping one is a create or an unlink (no file rewritten
// by two writers).
import { mkdirSync, writeFileSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { leaseFileName } from './snapshot-plan';

const LEASES = 'leases';

/**
 * Blocking, on every task's way to its start: a folder and a file of a few bytes are microseconds where the file
 * system is quick, where each trip through the thread pool (four for these two) costs a few hundred.
 */
export async function writeLease(snapshotDir: string, taskId: string): Promise<void> {
  mkdirSync(join(snapshotDir, LEASES), { recursive: true });
  writeFileSync(join(snapshotDir, LEASES, leaseFileName(taskId)), taskId);
}

export async function dropLease(snapshotDir: string, taskId: string): Promise<boolean> {
  const file = join(snapshotDir, LEASES, leaseFileName(taskId));
  try {
    await rm(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** The task ids holding a lease on the snapshot (none when it has no `leases/` folder). */
export async function readLeases(snapshotDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(join(snapshotDir, LEASES));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const leases: string[] = [];
  for (const name of names) {
    if (!name.endsWith('.lease')) continue;
    leases.push(await readFile(join(snapshotDir, LEASES, name), 'utf8'));
  }
  return leases;
}
