// Recognises a write that failed because its file system is full (SQLite's SQLITE_FULL, the OS's ENOSPC or
// EDQUOT, git saying so on stderr) and words it for people: "disk full", where, and what to free.
import { stat, statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DeskError } from '../../../shared/desk-error';

// `disk_full` is the desk's own (diskFullError below), so one already worded passes through as it is.
const FULL_CODES: ReadonlySet<string> = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT', 'disk_full']);
// What git, a shell or SQLite print when the code itself did not reach us (git's stderr inside a message).
// git's own "Out of diskspace" comes from writing an object or an index whose write was cut short.
const FULL_WORDS = /no space left on device|disk quota exceeded|database or disk is full|out of diskspace|\bENOSPC\b|\bEDQUOT\b/i;

/** True when `error` (or one of its causes) says its file system had no room for a write. */
export function isDiskFull(error: unknown): boolean {
  for (let cause = error, depth = 0; cause !== undefined && cause !== null && depth < 5; depth += 1) {
    if (typeof cause !== 'object') return typeof cause === 'string' && FULL_WORDS.test(cause);
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && FULL_CODES.has(code)) return true;
    if (typeof message === 'string' && FULL_WORDS.test(message)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/** What the desk was writing, and the path it was writing under (the data dir, a worktree). */
export interface FullDiskPlace {
  what: string;
  path: string;
}

/**
 * The sentence people read: starts with "Disk full" so it is found at a glance, names the file system by a path on
 * it (its mount point when known) and says what to free and that the desk carries on by itself.
 */
export function diskFullMessage(place: FullDiskPlace, mountPoint?: string): string {
  const where = mountPoint !== undefined && mountPoint !== place.path ? `${place.path} (file system mounted at ${mountPoint})` : place.path;
  return `Disk full: ${place.what} could not be written, the file system holding ${where} has no space left. `
    + 'Free space there (delete large files an agent made, old worktrees, build output, or archived tasks), then resubmit the task; '
    + 'the desk keeps its queued events and resumes by itself once there is room, no restart needed.';
}

/** The error callers throw for a write refused for want of space (HTTP 503, code `disk_full`). */
export function diskFullError(place: FullDiskPlace, mountPoint?: string, cause?: unknown): DeskError {
  return new DeskError('unavailable', 'disk_full', diskFullMessage(place, mountPoint), { path: place.path, ...(mountPoint !== undefined && { mountPoint }) }, { cause });
}

/** Bytes an unprivileged writer may still use on the file system holding `path`; undefined when it cannot be read. */
export async function freeBytes(path: string): Promise<number | undefined> {
  try {
    const found = await statfs(path);
    return found.bavail * found.bsize;
  } catch {
    return undefined;
  }
}

/**
 * The mount point of the file system holding `path` (the highest ancestor on the same device; for a path not made yet,
 * its nearest existing ancestor's); undefined when unknown.
 */
export async function mountPointOf(path: string): Promise<string | undefined> {
  try {
    let current = path;
    let found = await stat(current).catch(() => undefined);
    while (!found && dirname(current) !== current) {
      current = dirname(current);
      found = await stat(current).catch(() => undefined);
    }
    if (!found) return undefined;
    const device = found.dev;
    for (;;) {
      const parent = dirname(current);
      if (parent === current || (await stat(parent)).dev !== device) return current;
      current = parent;
    }
  } catch {
    return undefined;
  }
}
