// Where the pipeline benches keep their repositories and the desk's data, and what file system that is. Both matter
// to the figures: an ext4 made without a journal (some cloud images are) makes every new file cost the process that
// creates it 0.2-1 ms of CPU once many files were deleted in the last minutes (the kernel skips recently deleted
// inodes one by one in find_inode_bit, only when there is no journal), where a journaled one costs microseconds.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join, sep } from 'node:path';
import { usageError } from './bench-support';

/**
 * The cache folder in the home of the user running the bench, made if missing: where an installed desk keeps its data
 * (the home), not /tmp (see pipeline.ts's inDataPlace). The home is the account's, not $HOME: under runMain $HOME is
 * the benches' own empty dir in the machine's temp dir (bench-support.ts isolates git's config), which put every
 * repository and data dir of the pipeline benches under /tmp until this was seen.
 */
export function defaultDataParent(): string {
  let home: string;
  try {
    home = userInfo().homedir;
  } catch {
    // No entry in the password database (some containers): the environment's is all there is.
    home = homedir();
  }
  const cache = join(home, '.cache');
  mkdirSync(cache, { recursive: true });
  return cache;
}

/** The folder in a data parent that holds the benches' runs, each in a folder of its own (runRootIn). */
const RUNS_FOLDER = 'assignment-desk-bench';

/**
 * A new folder for one run of a bench in `parent`, inside its runs folder. On ext4 the runs folder is marked as the top
 * of a directory tree (`chattr +T`), so ext4 places each run's folder as it places a folder in the disk's root: in a
 * block group with few folders, not in the group of the run before. Without a journal, ext4 makes every new file look
 * past each inode deleted in its group in the last minutes (data-place's header): unmarked, every run paid for the
 * thousands of files the run before it deleted when it cleaned up (the desk's own CPU per task 28.6 and 35.6 ms
 * against 28.1 and 30.5 ms in a marked folder, alternating, same build), and a bench measured the benches before it.
 * The files the run itself deletes are still in its group: the desk pays for its own. Best effort: elsewhere, or
 * without `chattr`, the folder is a plain one.
 */
export function runRootIn(parent: string, prefix: string): string {
  const runs = join(parent, RUNS_FOLDER);
  if (!existsSync(runs)) {
    mkdirSync(runs, { recursive: true });
    try {
      execFileSync('chattr', ['+T', runs], { stdio: 'ignore' });
    } catch {
      // Not ext2/3/4, or no e2fsprogs: ext4's placement is all this did, and nothing else depends on it.
    }
  }
  return mkdtempSync(join(runs, prefix));
}

/** `--data-parent DIR` when given (it must exist), else defaultDataParent(). */
export function dataParentFrom(argv: readonly string[]): string {
  const at = argv.findIndex((arg) => arg === '--data-parent' || arg.startsWith('--data-parent='));
  if (at === -1) return defaultDataParent();
  const value = argv[at]?.includes('=') ? argv[at]?.slice(argv[at].indexOf('=') + 1) : argv[at + 1];
  if (!value || !existsSync(value)) throw usageError(`--data-parent needs a folder that exists (got ${value ?? 'nothing'}).`);
  return value;
}

/** One line for the bench's output: the mount `path` is on, its type, and for ext4 whether it keeps a journal. */
export function describeFileSystem(path: string): string {
  const mount = mountOf(realpathSync(path));
  if (mount === undefined) return `data in ${path}`;
  const journal = mount.type === 'ext4' ? (hasJournal(mount.device) ? ', with a journal' : ', without a journal: each new file costs its maker extra CPU here') : '';
  return `data in ${path}: ${mount.type} on ${mount.device} at ${mount.point}${journal}`;
}

interface Mount { point: string; type: string; device: string }

/** The longest mount point holding `path`, from /proc/self/mountinfo (Linux; undefined elsewhere). */
function mountOf(path: string): Mount | undefined {
  let text: string;
  try {
    text = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return undefined;
  }
  let best: Mount | undefined;
  for (const line of text.split('\n')) {
    // `id parent major:minor root point options [optional fields] - type source super-options`
    const [before, after] = line.split(' - ');
    const point = before?.split(' ')[4]?.replace(/\\040/g, ' ');
    const [type, device] = after?.split(' ') ?? [];
    if (point === undefined || type === undefined || device === undefined) continue;
    const holds = point === sep || path === point || path.startsWith(`${point}${sep}`);
    if (holds && (best === undefined || point.length >= best.point.length)) best = { point, type, device };
  }
  return best;
}

/** jbd2 lists a journal of every mounted ext4 that has one as `<device>-<inode>`. */
function hasJournal(device: string): boolean {
  const name = device.split('/').at(-1) ?? device;
  try {
    return readdirSync('/proc/fs/jbd2').some((entry) => entry.startsWith(`${name}-`));
  } catch {
    return false;
  }
}
