// Where a sandboxed run keeps the folders the desk makes and removes for it. Its git dir, sockets and state scratch are
// small files made and removed by the dozen on every run: on a memory file system that costs little, on a disk it is
// inode allocation (measured on an idle desk: 12 of the 17 ms a sandbox took to come up, on ext4). So they go to the
// user's runtime dir ($XDG_RUNTIME_DIR) or /dev/shm when one is there and private to this user, else to the data dir.
// The run's temp dir, which an agent may fill with anything, always stays on the data dir's disk.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, statfsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { sandboxRootOf } from './leftover-sandboxes';

export interface RunFolderRoots {
  /** The runs' git dirs, sockets and state scratch: one folder per run. */
  folders: string;
  /** The runs' temp dirs: one folder per run, on the data dir's disk (its root is how a restarted desk finds a killed one's sandboxes). */
  temp: string;
}

/** Both in the data dir: the default where no memory file system private to this user was chosen. */
export const dataDirRunFolders = (dataDir: string): RunFolderRoots => ({ folders: sandboxRootOf(dataDir), temp: sandboxRootOf(dataDir) });

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
    if (privateFolder(folders, uid)) return { folders, temp };
  }
  return { folders: temp, temp };
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
  const tempHome = roots.temp === roots.folders ? root : join(roots.temp, id);
  return { root, tempDir: join(tempHome, 'tmp'), owned: tempHome === root ? [root] : [root, tempHome] };
}
