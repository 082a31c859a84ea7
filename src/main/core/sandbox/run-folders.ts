// Where a sandboxed run keeps the folders the desk makes and removes for it. Its git dir, sockets and state scratch are
// small files made and removed by the dozen on every run: on a memory file system that costs little, on a disk it is
// inode allocation (measured on an idle desk: 12 of the 17 ms a sandbox took to come up, on ext4). So they go to the
// user's runtime dir ($XDG_RUNTIME_DIR) or /dev/shm when one is there and private to this user, else to the data dir.
// The run's temp dir, which an agent may fill with anything, always stays on the data dir's disk.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { sandboxRootOf } from './leftover-sandboxes';

export interface RunFolderRoots {
  /** The runs' git dirs, sockets and state scratch: one folder per run. */
  folders: string;
  /** The runs' temp dirs: one folder per run, on the data dir's disk (its root is how a restarted desk finds a killed one's sandboxes). */
  temp: string;
}

/** Both in the data dir: the default where no memory file system private to this user was chosen. */
export const dataDirRunFolders = (dataDir: string): RunFolderRoots => ({ folders: sandboxRootOf(dataDir), temp: sandboxRootOf(dataDir) });

/** Whether the runs' folders are on a memory file system: chosen only where one private to this user was found. */
export const foldersInMemory = (roots: RunFolderRoots): boolean => roots.folders !== roots.temp;

/** statfs(2)'s f_type for tmpfs. */
const TMPFS_MAGIC = 0x01021994;

export interface RunFolderEnvironment {
  env: NodeJS.ProcessEnv;
  /** This process's user id (`process.getuid()`); undefined where there is none (Windows). */
  uid: number | undefined;
}

/**
 * The roots for a desk on `dataDir`. The memory root is named after the data dir, so the next desk on it finds what a
 * killed one left; it is made here (0700) and used only when it is a real folder of this user that no one else can
 * enter: a name squatted in /dev/shm by another user makes the desk keep its folders in the data dir instead.
 */
export function runFolderRootsFor(dataDir: string, { env, uid }: RunFolderEnvironment): RunFolderRoots {
  const temp = sandboxRootOf(dataDir);
  if (uid === undefined || process.platform !== 'linux') return { folders: temp, temp };
  const desk = createHash('sha256').update(dataDir).digest('hex').slice(0, 16);
  for (const base of memoryBases(env)) {
    const mine = join(base, `assignment-desk-${uid}`);
    if (!privateFolder(mine, uid)) continue;
    const folders = join(mine, desk);
    if (privateFolder(folders, uid)) {
      markDataDir(folders, dataDir);
      return { folders, temp };
    }
  }
  return { folders: temp, temp };
}

/** The file in a memory root naming the data dir it serves: how a desk knows a sibling root is left over. */
const DATA_DIR_MARK = '.data-dir';

function markDataDir(folders: string, dataDir: string): void {
  try {
    writeFileSync(join(folders, DATA_DIR_MARK), dataDir);
  } catch {
    // Unmarked, it is never taken for another desk's leftover; it goes with its own desk's close.
  }
}

/**
 * Empties this desk's roots (nothing of its runs is running: ./leftover-sandboxes.ts ended that) and, for a memory
 * root, removes the roots beside it whose data dir is gone (a deleted data dir, a test's temp dir): named after their
 * data dir, they would otherwise stay in memory until the machine restarts. A root without its mark is left alone.
 */
export function sweepRunFolders(roots: RunFolderRoots, dataDir: string): void {
  for (const root of new Set([roots.folders, roots.temp])) rmSync(root, { recursive: true, force: true });
  if (roots.folders === roots.temp) return;
  mkdirSync(roots.folders, { recursive: true, mode: 0o700 });
  markDataDir(roots.folders, dataDir);
  const parent = dirname(roots.folders);
  for (const name of readdirSync(parent)) {
    if (name === basename(roots.folders)) continue;
    const servedDataDir = readMark(join(parent, name));
    if (servedDataDir !== undefined && !existsSync(servedDataDir)) rmSync(join(parent, name), { recursive: true, force: true });
  }
}

function readMark(folders: string): string | undefined {
  try {
    return readFileSync(join(folders, DATA_DIR_MARK), 'utf8');
  } catch {
    return undefined;
  }
}

/** Memory file systems a user's processes may make folders in, most private first. */
function memoryBases(env: NodeJS.ProcessEnv): string[] {
  const runtime = env.XDG_RUNTIME_DIR;
  return [...(runtime && isAbsolute(runtime) ? [runtime] : []), '/dev/shm'].filter(onTmpfs);
}

function onTmpfs(path: string): boolean {
  try {
    return statfsSync(path).type === TMPFS_MAGIC;
  } catch {
    return false;
  }
}

/** Makes `path` (0700) when absent; true when it is a folder, not a link, owned by `uid`, that no one else may enter. */
function privateFolder(path: string, uid: number): boolean {
  try {
    mkdirSync(path, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
  }
  try {
    const info = lstatSync(path);
    return info.isDirectory() && info.uid === uid && (info.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** One run's places: its folder (git dir, sockets, state scratch), its temp dir, and the folders to remove at its end. */
export function runPlaces(roots: RunFolderRoots, id: string): { root: string; tempDir: string; owned: string[] } {
  const root = join(roots.folders, id);
  if (!foldersInMemory(roots)) return { root, tempDir: join(root, 'tmp'), owned: [root] };
  // The temp dir is the run's folder on the disk itself: one directory made per run there, not two (on a disk a new
  // inode is the dearest file-system step a run takes).
  const tempDir = join(roots.temp, id);
  return { root, tempDir, owned: [root, tempDir] };
}
