// Processes started ahead of need, each a shell waiting on its stdin to be told what to become. Node forks the desk to
// start a process, and fork copies the page tables of everything the desk has touched: a few ms at a few hundred MB,
// during which the desk's thread waits. A task's start needs two long-lived processes (its layer's holder, its agent's
// launcher); taken from here, each costs a write to a pipe, and the forks that replace them happen while the task's
// agent is starting and the desk waits anyway.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Socket } from 'node:net';

export interface SpareLaunch {
  command: string;
  args: readonly string[];
  /** Where it runs; default: where the desk runs. */
  cwd?: string;
  /** Its whole environment (nothing of the desk's is added). */
  env: Readonly<Record<string, string | undefined>>;
}

export interface SpareProcesses {
  /**
   * A waiting process, made `launch` (the same process: its pid, pipes and exit are the launched command's, in a process
   * group of its own), or undefined when none waits or the launch cannot be passed through a pipe (a newline in a word).
   * The command is run by the shell's `exec`: it must exist (give a program the caller knows is there).
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
}

/**
 * A task's start takes its spares within a few ms; replacing them at once would put the forks back in that start. The
 * agent's own start (tens of ms, the desk waiting on it) is where they cost nothing.
 */
export const REFILL_DELAY_MS = 100;

// Reads the environment's `NAME=value` lines, the directory, then the command's words, each after its count; a line's
// text is taken verbatim (IFS= read -r), and only ever as one word. Its own variables have names no launch may give
// (checked below). Stdin at its end (the desk closed it or died): it ends without running anything.
const WAIT_SCRIPT = [
  'IFS= read -r __desk_n || exit 0',
  'while [ "$__desk_n" -gt 0 ]; do IFS= read -r __desk_w || exit 0; export "$__desk_w"; __desk_n=$((__desk_n - 1)); done',
  'IFS= read -r __desk_w || exit 0',
  '[ -z "$__desk_w" ] || cd "$__desk_w" || exit 126',
  'IFS= read -r __desk_n || exit 0',
  'set --',
  'while [ "$__desk_n" -gt 0 ]; do IFS= read -r __desk_w || exit 0; set -- "$@" "$__desk_w"; __desk_n=$((__desk_n - 1)); done',
  'unset __desk_n __desk_w',
  'exec "$@"',
].join('\n');

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Read-only in bash, the `sh` of some systems, where exporting one ends the shell: such a launch is spawned instead. */
const SHELL_READ_ONLY = new Set(['SHELLOPTS', 'BASHOPTS', 'BASH_VERSINFO', 'EUID', 'PPID', 'UID']);

/** The lines that make a waiting shell `launch`, or undefined when a word cannot be passed as a line. */
export function spareLaunchLines(launch: SpareLaunch): string | undefined {
  const pairs = Object.entries(launch.env).filter((entry): entry is [string, string] => entry[1] !== undefined);
  // A name the shell could not export, or one of its own; a value or word that a newline would cut in two.
  if (pairs.some(([name]) => !VARIABLE_NAME.test(name) || name.startsWith('__desk_') || SHELL_READ_ONLY.has(name))) return undefined;
  const words = [launch.command, ...launch.args];
  const texts = [...pairs.map(([name, value]) => `${name}=${value}`), launch.cwd ?? '', ...words];
  if (launch.command === '' || texts.some((text) => text.includes('\n') || text.includes('\0'))) return undefined;
  return [String(pairs.length), ...pairs.map(([name, value]) => `${name}=${value}`), launch.cwd ?? '', String(words.length), ...words, ''].join('\n');
}

export function createSpareProcesses(options: SpareProcessOptions = {}): SpareProcesses {
  const count = options.count ?? 2;
  const refillDelayMs = options.refillDelayMs ?? REFILL_DELAY_MS;
  const waiting: { child: ChildProcessWithoutNullStreams; drop: () => void }[] = [];
  let refill: NodeJS.Timeout | undefined;
  let closed = false;

  const start = () => {
    // No environment: the launch brings its own. Its own process group, as the agent's must be (stopped whole).
    const child = spawn('/bin/sh', ['-c', WAIT_SCRIPT, 'desk-spare'], { env: {}, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    // One that ends while waiting (killed from outside) is dropped.
    const drop = () => {
      const at = waiting.findIndex((spare) => spare.child === child);
      if (at >= 0) waiting.splice(at, 1);
    };
    child.once('exit', drop);
    child.once('error', drop);
    // Waiting keeps no process alive that would otherwise end (a script, a test run): held again once taken.
    holdsLoop(child, false);
    waiting.push({ child, drop });
  };
  const fill = () => {
    refill = undefined;
    while (!closed && waiting.length < count) start();
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
      const lines = spareLaunchLines(launch);
      const spare = lines === undefined ? undefined : waiting.find(({ child }) => child.exitCode === null && child.signalCode === null);
      if (spare === undefined || lines === undefined) {
        fillLater();
        return undefined;
      }
      const { child, drop } = spare;
      waiting.splice(waiting.indexOf(spare), 1);
      child.off('exit', drop);
      child.off('error', drop);
      holdsLoop(child, true);
      // Written before anything else the caller writes: the shell reads a pipe a byte at a time, up to its last line.
      child.stdin.write(lines);
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

/** Whether the child and its pipes keep the desk's event loop alive. Its pipes are sockets, typed as plain streams. */
function holdsLoop(child: ChildProcessWithoutNullStreams, hold: boolean): void {
  const handles = [child, ...[child.stdin, child.stdout, child.stderr] as unknown as Socket[]];
  for (const handle of handles) {
    if (hold) handle.ref();
    else handle.unref();
  }
}
