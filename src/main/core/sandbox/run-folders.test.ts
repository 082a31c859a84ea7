// Where runs keep their folders: a memory file system private to this user when there is one, else the data dir.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, statfsSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runFolderRootsFor, runPlaces, sweepRunFolders } from './run-folders';

const TMPFS_MAGIC = 0x01021994;
const uid = process.getuid?.();
const shmIsTmpfs = (() => {
  try {
    return statfsSync('/dev/shm').type === TMPFS_MAGIC;
  } catch {
    return false;
  }
})();

const made: string[] = [];
/** The roots a call made (in /dev/shm when the runtime dir is refused) go when the test ends. */
const rootsFor = (dataDir: string, env: NodeJS.ProcessEnv) => {
  const roots = runFolderRootsFor(dataDir, { env, uid: uid as number });
  made.push(roots.folders);
  return roots;
};
afterEach(() => {
  for (const path of made.splice(0)) rmSync(path, { recursive: true, force: true });
});

/** A runtime dir of this test's own on /dev/shm, standing in for $XDG_RUNTIME_DIR. */
function runtimeDir(): string {
  const dir = mkdtempSync(join('/dev/shm', 'desk-runtime-'));
  made.push(dir);
  return dir;
}

describe.skipIf(process.platform !== 'linux' || uid === undefined || !shmIsTmpfs)('runFolderRootsFor', () => {
  it('keeps the runs\' folders in the user\'s runtime dir, private to them, and their temp dirs in the data dir', () => {
    const runtime = runtimeDir();
    const roots = rootsFor('/data/desk', { XDG_RUNTIME_DIR: runtime });
    expect(roots.temp).toBe(join('/data/desk', 'sb'));
    expect(roots.folders.startsWith(join(runtime, `assignment-desk-${uid}`, ''))).toBe(true);
    expect(statSync(roots.folders).mode & 0o777).toBe(0o700);
  });

  it('gives two data dirs two roots, and the same data dir the same root after a restart', () => {
    const env = { XDG_RUNTIME_DIR: runtimeDir() };
    const first = rootsFor('/data/one', env);
    expect(rootsFor('/data/one', env)).toEqual(first);
    expect(rootsFor('/data/two', env).folders).not.toBe(first.folders);
  });

  it('removes, when a desk starts, the memory roots of data dirs that are gone, and keeps those of data dirs still there', () => {
    const env = { XDG_RUNTIME_DIR: runtimeDir() };
    const kept = mkdtempSync(join(tmpdir(), 'kept-data-'));
    const gone = mkdtempSync(join(tmpdir(), 'gone-data-'));
    made.push(kept, gone);
    const keptRoots = rootsFor(kept, env);
    const goneRoots = rootsFor(gone, env);
    writeFileSync(join(goneRoots.folders, 'left-by-a-killed-run'), '');
    rmSync(gone, { recursive: true });
    const starting = mkdtempSync(join(tmpdir(), 'starting-data-'));
    made.push(starting);
    sweepRunFolders(rootsFor(starting, env), starting);
    expect([existsSync(keptRoots.folders), existsSync(goneRoots.folders)]).toEqual([true, false]);
  });

  it('leaves a memory root alone that does not say which data dir it serves', () => {
    const env = { XDG_RUNTIME_DIR: runtimeDir() };
    const unmarked = join(env.XDG_RUNTIME_DIR, `assignment-desk-${uid}`, 'not-a-desk-root');
    const starting = mkdtempSync(join(tmpdir(), 'starting-data-'));
    made.push(starting);
    const roots = rootsFor(starting, env);
    mkdirSync(unmarked);
    sweepRunFolders(roots, starting);
    expect(existsSync(unmarked)).toBe(true);
  });

  it('never keeps the folders behind a link someone planted in the runtime dir', () => {
    const runtime = runtimeDir();
    const elsewhere = mkdtempSync(join(tmpdir(), 'planted-'));
    made.push(elsewhere);
    symlinkSync(elsewhere, join(runtime, `assignment-desk-${uid}`));
    const roots = rootsFor('/data/desk', { XDG_RUNTIME_DIR: runtime });
    expect(roots.folders.startsWith(elsewhere)).toBe(false);
    expect(roots.folders.startsWith(runtime)).toBe(false);
  });

  it('never keeps the folders in a folder of the runtime dir that others may enter', () => {
    const runtime = runtimeDir();
    const open = join(runtime, `assignment-desk-${uid}`);
    mkdirSync(open);
    chmodSync(open, 0o777);
    const roots = rootsFor('/data/desk', { XDG_RUNTIME_DIR: runtime });
    expect(roots.folders.startsWith(runtime)).toBe(false);
  });

  it('never keeps the folders in a runtime dir that is on disk', () => {
    const disk = mkdtempSync(join(tmpdir(), 'not-memory-'));
    made.push(disk);
    const roots = rootsFor('/data/desk', { XDG_RUNTIME_DIR: disk });
    expect(roots.folders.startsWith(disk)).toBe(false);
  });
});

describe('runPlaces', () => {
  it('puts a run\'s temp dir beside its folder when both roots are the data dir\'s, and removes one folder', () => {
    expect(runPlaces({ folders: '/d/sb', temp: '/d/sb' }, 'ab12')).toEqual({ root: '/d/sb/ab12', tempDir: '/d/sb/ab12/tmp', owned: ['/d/sb/ab12'] });
  });

  it('makes a run\'s temp dir a folder of its own on the data dir\'s disk when its folder is in memory, and removes both', () => {
    expect(runPlaces({ folders: '/run/user/1000/assignment-desk-1000/x', temp: '/d/sb' }, 'ab12')).toEqual({
      root: '/run/user/1000/assignment-desk-1000/x/ab12', tempDir: '/d/sb/ab12', owned: ['/run/user/1000/assignment-desk-1000/x/ab12', '/d/sb/ab12'],
    });
  });
});
