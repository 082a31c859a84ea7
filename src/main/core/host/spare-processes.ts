// Processes started ahead of need, each a shell waiting on its stdin to be told what to become. Node forks the desk to
// start a process, and fork copies the page tables of everything the desk has touched: a few ms at a few hundred MB,
// during which the desk's thread waits. A task's start needs two long-lived processes (its layer's holder, its agent's
// launcher) and its commit a short git script; taken from here, each costs a write to a pipe, and the forks that
// replace them come a moment later, while the task's agent works.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { findOnPath } from './find-on-path';

export interface SpareLaunch {
  command: string;
  args: readonly string[];
  /** Where it runs; default: where the desk runs. */
  cwd?: string;
  /** Its whole environment (nothing of the desk's is added). */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * A private folder of the caller's on a memory file system (mode 0700, removed by the caller), where a long launch
   * is written as a file that the shell reads in one go: faster than the pipe (see LINE_READ_MAX_BYTES). The file
   * holds the launch's environment, so only a folder that the launched command's environment may be kept in.
   */
  launchDir?: string;
}

export interface SpareProcesses {
  /**
   * A waiting process, made `launch` (the same process: its pid, pipes and exit are the launched command's, in a process
   * group of its own), or undefined when none waits or the shell could not run the launch as given (a NUL, a variable
   * name it would refuse, a command that looks like an option): the caller then spawns it itself. The command is run
   * by the shell's `exec`: it must exist (give a program the caller knows is there). A `/bin/sh -c` script is run by the
   * waiting shell itself.
   */
  take(launch: SpareLaunch): ChildProcessWithoutNullStreams | undefined;
  /** Ends the waiting processes; nothing is taken after. */
  close(): void;
}

export interface SpareProcessOptions {
  /** How many wait at once (default 2: a task's holder and launcher). */
  count?: number;
  /** How long after a take the replacement is started (default REFILL_DELAY_MS). */
  refillDelayMs?: number;
  /** The dd that reads each launch (default: dd on PATH). */
  dd?: string;
}

/**
 * A task's start takes its spares within a few ms; replacing them at once would put the forks back in that start. The
 * agent's own start (tens of ms, the desk waiting on it) is where they cost nothing.
 */
export const REFILL_DELAY_MS = 100;
const BETWEEN_STARTS_MS = 20;

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Read-only in bash, the `sh` of some systems, where exporting one ends the shell: such a launch is spawned instead. */
const SHELL_READ_ONLY = new Set(['SHELLOPTS', 'BASHOPTS', 'BASH_VERSINFO', 'EUID', 'PPID', 'UID']);

/**
 * A launch this short, on one line, is read by the shell itself; a longer one by dd. The shell's `read` takes a pipe a
 * byte at a time (so that it never reads past its line): 0.6 ms for a layer holder's launch of 1 KB here. dd reads it in
 * one go but is a process of its own: 1.9 ms whatever the length (an agent's launcher is about 5 KB).
 */
const LINE_READ_MAX_BYTES = 2048;
/**
 * A launch longer than this goes through a file where the caller gives a folder for it (SpareLaunch.launchDir): its
 * writing and the shell's `.` of it take about 0.3 ms, about what the shell's `read` takes for half a KB.
 */
const FILE_MIN_BYTES = 512;

/**
 * What a waiting shell runs. Its first line says how the launch comes: `line`, then the launch on one line; `file`,
 * then the path of a file that holds it (read by the shell's `.` in one go); or the launch's length in bytes, then the
 * launch itself, read by dd in one go (exactly that many bytes: what the caller writes after it is the launched
 * command's) and checked whole. Then it runs it, as its last command: the shell ends with the launch's status. Stdin at
 * its end (the desk closed it or died, even mid-launch): it ends without running anything. In the C locale (no
 * environment), `${#…}` counts bytes.
 */
function waitScript(dd: string): string {
  return [
    'IFS= read -r __desk_n || exit 0',
    'case $__desk_n in',
    'line) IFS= read -r __desk_s || exit 0; eval "$__desk_s" ;;',
    'file) IFS= read -r __desk_s || exit 0; . "$__desk_s" ;;',
    `*) __desk_s=$(${quoted(dd)} bs="$__desk_n" count=1 iflag=fullblock 2>/dev/null) || exit 126`,
    '  [ "${#__desk_s}" -eq "$__desk_n" ] || exit 126',
    '  eval "$__desk_s" ;;',
    'esac',
  ].join('\n');
}

/**
 * The shell text that makes a waiting shell `launch` (its environment exported, its directory, then `exec`);
 * undefined when the launch cannot be said so (a name the shell would refuse, a NUL, a word it would take as an
 * option). A launch of `/bin/sh -c SCRIPT NAME ARGS…` (a cgroup join, a git script) is run by the waiting shell itself,
 * which is that shell already: one exec fewer, about 0.8 ms. Its `$0` is then the spare's, not NAME.
 */
export function spareLaunchScript(launch: SpareLaunch): string | undefined {
  const pairs = Object.entries(launch.env).filter((entry): entry is [string, string] => entry[1] !== undefined);
  if (pairs.some(([name]) => !VARIABLE_NAME.test(name) || name.startsWith('__desk_') || SHELL_READ_ONLY.has(name))) return undefined;
  const words = [launch.command, ...launch.args];
  if (launch.command === '' || launch.command.startsWith('-') || launch.cwd?.startsWith('-')) return undefined;
  if ([...pairs.flat(), launch.cwd ?? '', ...words].some((text) => text.includes('\0'))) return undefined;
  const [flag, script] = launch.args;
  const inShell = launch.command === '/bin/sh' && flag === '-c' && script !== undefined;
  return [
    ...(pairs.length > 0 ? [`export ${pairs.map(([name, value]) => quoted(`${name}=${value}`)).join(' ')}`] : []),
    ...(launch.cwd !== undefined ? [`cd ${quoted(launch.cwd)} || exit 126`] : []),
    // As `sh -c` would: the arguments after its name are the positional ones, and the script is parsed on its own.
    ...(inShell ? [`set -- ${launch.args.slice(3).map(quoted).join(' ')}`, `eval ${quoted(script)}`] : [`exec ${words.map(quoted).join(' ')}`]),
  ].join('; ');
}

/** What is written to a waiting shell for `script`: the line that says how it comes, then the launch itself. */
export function spareLaunchText(script: string): string {
  const bytes = Buffer.byteLength(script, 'utf8');
  return !script.includes('\n') && bytes <= LINE_READ_MAX_BYTES ? `line\n${script}\n` : `${bytes}\n${script}`;
}

/**
 * The launch as a file in `dir` for the waiting shell `pid` to read: the line that says so, or undefined when it is
 * better sent through the pipe (short) or cannot be written (the caller's folder gone): it is sent through the pipe then.
 */
function launchFileText(script: string, dir: string | undefined, pid: number | undefined): string | undefined {
  if (dir === undefined || pid === undefined || Buffer.byteLength(script, 'utf8') < FILE_MIN_BYTES || dir.includes('\n')) return undefined;
  const file = join(dir, `spare-launch-${pid}.sh`);
  try {
    // Blocking: microseconds on a memory file system, and the launch waits for it anyway. Its own name, never reused.
    writeFileSync(file, script, { mode: 0o600, flag: 'wx' });
  } catch {
    return undefined;
  }
  return `file\n${file}\n`;
}

/** One word for the shell, whatever it holds: in single quotes, each of its own quotes closed, escaped and reopened. */
function quoted(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

export function createSpareProcesses(options: SpareProcessOptions = {}): SpareProcesses {
  const count = options.count ?? 2;
  const refillDelayMs = options.refillDelayMs ?? REFILL_DELAY_MS;
  const waiting: { child: ChildProcessWithoutNullStreams; drop: () => void }[] = [];
  let refill: NodeJS.Timeout | undefined;
  let closed = false;
  // Found with the first fill, off any task's way: without a dd that reads whole blocks, no spare is ever started.
  let script: string | undefined | null;

  const start = (waitFor: string) => {
    // No environment: the launch brings its own. Its own process group, as the agent's must be (stopped whole).
    const child = spawn('/bin/sh', ['-c', waitFor, 'desk-spare'], { env: {}, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    // One that ends while waiting (killed from outside) is dropped.
    const drop = () => {
      const at = waiting.findIndex((spare) => spare.child === child);
      if (at >= 0) waiting.splice(at, 1);
    };
    child.once('exit', drop);
    child.once('error', drop);
    // One killed while waiting and taken before its end was seen refuses the launch written to it: its exit tells the
    // caller so, and the broken pipe must not end the desk.
    child.stdin.on('error', () => undefined);
    // Waiting keeps no process alive that would otherwise end (a script, a test run): held again once taken.
    holdsLoop(child, false);
    waiting.push({ child, drop });
  };
  const fill = () => {
    refill = undefined;
    if (script === undefined) {
      const dd = options.dd ?? findOnPath('dd', process.env.PATH ?? '');
      script = dd !== undefined && readsWholeBlocks(dd) ? waitScript(dd) : null;
    }
    if (closed || script === null || waiting.length >= count) return;
    // One at a time: each is a fork of the desk, and a burst of them would hold its thread for their sum.
    start(script);
    if (waiting.length < count) {
      refill = setTimeout(fill, BETWEEN_STARTS_MS);
      refill.unref();
    }
  };
  // One that ended without the desk having seen it yet (killed from outside a moment ago) is dropped on the way: a
  // launch written to it would fail its task, where a spawn would have run.
  const firstStillWaiting = () => {
    while (waiting.length > 0) {
      const next = waiting[0] as (typeof waiting)[number];
      if (stillWaits(next.child)) return next;
      waiting.shift();
    }
    return undefined;
  };
  const fillLater = () => {
    if (closed || refill !== undefined) return;
    refill = setTimeout(fill, refillDelayMs);
    refill.unref();
  };

  fillLater();
  return {
    take(launch) {
      if (closed) return undefined;
      const script = spareLaunchScript(launch);
      const spare = script === undefined ? undefined : firstStillWaiting();
      if (spare === undefined || script === undefined) {
        fillLater();
        return undefined;
      }
      const { child, drop } = spare;
      waiting.splice(waiting.indexOf(spare), 1);
      child.off('exit', drop);
      child.off('error', drop);
      holdsLoop(child, true);
      // Written before anything the caller writes: the shell reads no further than the launch (see waitScript).
      child.stdin.write(launchFileText(script, launch.launchDir, child.pid) ?? spareLaunchText(script));
      fillLater();
      return child;
    },
    close() {
      closed = true;
      if (refill !== undefined) clearTimeout(refill);
      for (const { child } of waiting.splice(0)) {
        child.stdin.end();
        child.kill('SIGKILL');
      }
    },
  };
}

/**
 * Whether a waiting shell is still there to be told: not ended as the desk has seen it, and, where /proc tells, not a
 * zombie either (its end not yet reported). A blocking read of a small file, on a take only.
 */
function stillWaits(child: ChildProcessWithoutNullStreams): boolean {
  if (child.exitCode !== null || child.signalCode !== null) return false;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${child.pid}/stat`, 'latin1');
  } catch (error) {
    // No /proc here (another OS): what the desk has seen is all it knows. On Linux, no such process any more.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT' || !existsSync('/proc/self/stat');
  }
  // The state follows the command's name in parentheses, which may itself hold a ')'.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

/** Whether the child and its pipes keep the desk's event loop alive. Its pipes are sockets, typed as plain streams. */
function holdsLoop(child: ChildProcessWithoutNullStreams, hold: boolean): void {
  const handles = [child, ...[child.stdin, child.stdout, child.stderr] as unknown as Socket[]];
  for (const handle of handles) {
    if (hold) handle.ref();
    else handle.unref();
  }
}

/** Whether `dd` knows `iflag=fullblock` (GNU coreutils, busybox): asked once, by running it on nothing. */
function readsWholeBlocks(dd: string): boolean {
  return spawnSync(dd, ['if=/dev/null', 'of=/dev/null', 'bs=1', 'count=1', 'iflag=fullblock'], { stdio: 'ignore', timeout: 5_000 }).status === 0;
}
