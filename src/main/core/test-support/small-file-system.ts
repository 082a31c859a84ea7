// Test support: a small real file system (tmpfs) to fill, for the disk-full tests. Mounting needs root: elsewhere
// the tests skip with the reason, except in CI (DESK_REQUIRE_SANDBOX=1), where they must run.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Mounts a tmpfs of `sizeMb` at a new directory (or at `at`, made here, e.g. a data dir's folder), or says why it cannot. */
export function mountSmallFileSystem(sizeMb = 8, at?: string): { dir: string; skip: false } | { dir?: undefined; skip: string } {
  const dir = at ?? mkdtempSync(join(tmpdir(), 'desk-small-fs-'));
  if (at !== undefined) mkdirSync(at, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: 'pipe' });
    return { dir, skip: false };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const why = `cannot mount a small tmpfs here (needs root): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    if (process.env.DESK_REQUIRE_SANDBOX === '1') throw new Error(`The disk-full tests must run here (DESK_REQUIRE_SANDBOX=1), but ${why}`);
    return { skip: why };
  }
}

/** Unmounts what mountSmallFileSystem mounted and removes its directory. */
export function unmountSmallFileSystem(dir: string): void {
  execFileSync('umount', [dir]);
  rmSync(dir, { recursive: true, force: true });
}

/** Writes `path` until the file system holding it has no room left (ENOSPC); returns the path, to delete for room. */
export function fillUp(path: string): string {
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  // What is left is less than a block: fill that too, byte by byte in small writes.
  const fd2 = openSync(path, 'a');
  try {
    for (;;) writeSync(fd2, Buffer.alloc(512));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd2);
  }
  return path;
}
