// Ending a sandboxed agent whose every process lives in one PID namespace (bubblewrap --unshare-pid): the namespace
// dies with its first process, bubblewrap's init, so stopping waits on that one process instead of reading all of /proc.
import { readFileSync } from 'node:fs';
import { endProcessTree } from './process-tree';

/** A process as /proc shows it at one moment: its start time tells it from a later process given the same pid. */
export interface ProcessMark { pid: number; start: string }

/**
 * Ends the sandbox whose outer bubblewrap is `pid` (our child): SIGTERM to it, SIGKILL after `graceMs`, and resolves
 * true once the namespace's init is gone, false if it still ran after `limitMs`. The outer bubblewrap returns as soon
 * as the agent exits, while its init may still wait on processes the agent left; the init dies with the outer one
 * (--die-with-parent) and the kernel ends every process of the namespace before the init itself is gone.
 * Where the init cannot be found or the outer bubblewrap is not ours to signal (set-uid), it walks the tree instead.
 */
export async function endSandboxNamespace(pid: number, options: { exited: Promise<unknown>; graceMs: number; limitMs: number }): Promise<boolean> {
  const started = Date.now();
  const inits = childrenOf(pid);
  if (inits.length === 0 || !signal(pid, 'SIGTERM')) return endProcessTree(pid, options);
  // Its group holds the agent too where bubblewrap gave it no session of its own.
  signal(-pid, 'SIGTERM');
  if (!(await settlesWithin(options.exited, options.graceMs))) {
    signal(-pid, 'SIGKILL');
    signal(pid, 'SIGKILL');
    await settlesWithin(options.exited, Math.max(0, options.limitMs - (Date.now() - started)));
  }
  // The init ends a moment after the outer bubblewrap: a few looks at its one stat file, more spaced each time.
  let pause = 1;
  while (inits.some(stillRuns)) {
    const elapsed = Date.now() - started;
    if (elapsed >= options.graceMs) for (const init of inits) if (stillRuns(init)) signal(init.pid, 'SIGKILL');
    if (elapsed >= options.limitMs) return !inits.some(stillRuns);
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 25);
  }
  return true;
}

/** The children `pid` has started (Linux /proc, its main thread's), each marked; empty where /proc does not tell. */
export function childrenOf(pid: number): ProcessMark[] {
  let listing: string;
  try {
    listing = readFileSync(`/proc/${pid}/task/${pid}/children`, 'latin1');
  } catch {
    return [];
  }
  const marks: ProcessMark[] = [];
  for (const child of listing.split(' ').filter(Boolean).map(Number)) {
    const stat = statOf(child);
    if (stat !== undefined && stat.state !== 'Z') marks.push({ pid: child, start: stat.start });
  }
  return marks;
}

/** False once the process is gone: exited (a zombie counts as gone), or its pid now names another process. */
export function stillRuns(mark: ProcessMark): boolean {
  const stat = statOf(mark.pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X' && stat.start === mark.start;
}

/** The state and start time fields of a /proc stat line; undefined when the process is gone. */
export function parseStat(line: string): { state: string; start: string } | undefined {
  // The command name (2nd field) may hold spaces and parentheses: the fields that follow start after the last ')'.
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  // After the name: state is field 3 of the line, the start time field 22.
  const state = fields[0];
  const start = fields[19];
  return state === undefined || start === undefined ? undefined : { state, start };
}

function statOf(pid: number): { state: string; start: string } | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return undefined;
  }
}

/** False only when the target is not ours to signal; a process already gone counts as signalled. */
function signal(target: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(target, name);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'EPERM';
  }
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([promise.then(() => true, () => true), new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(false), ms); })]);
  clearTimeout(timer);
  return settled;
}
