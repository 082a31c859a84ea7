// Run temp dirs made ahead of need. A run's temp dir lives on the data dir's disk (an agent may fill it with anything),
// where a new directory can take milliseconds: a busy or slow disk, a home on the network, an ext4 without a journal
// after many deletions (measured here: 1 to 6 ms, on the way to every agent's start). One made after the previous
// run took its own is there at once. Each is an empty folder (0700) of the runs' temp root, named by the run id it gives.
import { randomBytes } from 'node:crypto';
import { lstatSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

export interface SpareTempDir {
  /** The run id the folder is named by: the run's other folders take the same. */
  id: string;
  path: string;
}

export interface SpareTempDirs {
  /**
   * An empty temp dir made ahead, or undefined when none is ready (the first run, or one right after another): the
   * caller makes its own then. Each take starts the next one's making, a moment later.
   */
  take(): SpareTempDir | undefined;
  /** Removes the one made ahead; nothing is made or taken after. */
  close(): void;
}

/**
 * After a take, the next one is made this much later: a run's start takes its temp dir within a few ms, and the disk's
 * time is better spent on that start's own files first.
 */
export const REFILL_DELAY_MS = 100;

/** The run ids: short on purpose (a socket lives below the run's folder, and socket paths are limited to 107 bytes). */
export const newRunId = (): string => randomBytes(6).toString('hex');

export function createSpareTempDirs(root: string, options: { refillDelayMs?: number } = {}): SpareTempDirs {
  let ready: SpareTempDir | undefined;
  let making: Promise<void> | undefined;
  let refill: NodeJS.Timeout | undefined;
  let closed = false;

  const make = () => {
    refill = undefined;
    if (closed || ready || making) return;
    const id = newRunId();
    const path = join(root, id);
    making = mkdir(path, { recursive: true, mode: 0o700 }).then(() => {
      // Closed meanwhile: it goes with the desk, not left for the next start's sweep.
      if (closed) rmSync(path, { recursive: true, force: true });
      else ready = { id, path };
    }, () => {
      // A disk that refuses (full, gone): the runs make their own, and say why if they cannot either.
    }).finally(() => { making = undefined; });
  };
  const makeLater = () => {
    if (closed || refill) return;
    refill = setTimeout(make, options.refillDelayMs ?? REFILL_DELAY_MS);
    refill.unref();
  };

  return {
    take() {
      if (closed) return undefined;
      const taken = ready;
      ready = undefined;
      makeLater();
      // Still there, this user's (a sweep of the root would have removed it).
      return taken && stillThere(taken.path) ? taken : undefined;
    },
    close() {
      closed = true;
      if (refill) clearTimeout(refill);
      if (ready) rmSync(ready.path, { recursive: true, force: true });
      ready = undefined;
    },
  };
}

/** A blocking lstat: microseconds, even on a disk where making a directory takes milliseconds. */
function stillThere(path: string): boolean {
  try {
    const stat = lstatSync(path);
    return stat.isDirectory() && stat.uid === (process.getuid?.() ?? stat.uid);
  } catch {
    return false;
  }
}
