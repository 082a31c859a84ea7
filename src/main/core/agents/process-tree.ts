// Ending an agent's whole process tree, and recognising one left behind by a crashed desk.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readProcessTable, treeOf, type ProcessInfo } from './process-table';

const isWindows = process.platform === 'win32';

/** True while a live (not zombie) process with this pid exists. */
export function processExists(pid: number): boolean {
  if (isWindows) return signalZero(pid);
  return readProcessTable().some((p) => p.pid === pid && !p.zombie);
}

/** True while any live process of the tree rooted at `pid` (descendants, or its group) remains. */
export function processGroupAlive(pid: number): boolean {
  if (isWindows) return signalZero(pid);
  return treeOf(pid, readProcessTable()).length > 0;
}

/**
 * Signals every process of the tree rooted at `pid`: each member and each process group they lead,
 * because agents start helpers in groups of their own. The desk's own group is never signalled.
 * On Windows, `taskkill /T` walks the tree.
 */
export function signalProcessTree(pid: number, signal: NodeJS.Signals, table: readonly ProcessInfo[] = readProcessTable()): void {
  if (isWindows) {
    spawnSync('taskkill', ['/PID', String(pid), '/T', '/F'], { stdio: 'ignore' });
    return;
  }
  const ownGroup = table.find((p) => p.pid === process.pid)?.pgid ?? -1;
  const members = treeOf(pid, table);
  const groups = new Set(members.map((p) => p.pgid).filter((g) => g !== ownGroup && g > 1));
  for (const group of groups) trySignal(-group, signal);
  for (const member of members) if (member.pid !== process.pid) trySignal(member.pid, signal);
}

/**
 * The command line of a running process, where the platform tells it (Linux /proc); undefined elsewhere.
 * Used so that a pid recorded before a crash is killed only if it still runs the agent we started.
 */
export function commandLineOf(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return undefined;
  }
}

/**
 * Sends SIGTERM to the tree, then SIGKILL after `graceMs`; resolves once the tree is gone or `limitMs` passed.
 * Every process once seen in the tree counts until it is gone: a sandbox's inner bubblewrap leads a session of its
 * own and outlives the outer one by a moment, and "cancelled" must not be reported while it still runs.
 * `exited`, when the caller holds the root as a child: the tree is looked at again once it has exited (or the grace
 * is over), not every 25 ms meanwhile; each look reads the whole process table.
 */
export async function endProcessTree(pid: number, options: { graceMs?: number; limitMs?: number; exited?: Promise<unknown> } = {}): Promise<boolean> {
  const graceMs = options.graceMs ?? 1000;
  const limitMs = options.limitMs ?? 2500;
  const started = Date.now();
  const seen = new Set<number>();
  const remaining = (table: readonly ProcessInfo[] = readProcessTable()): boolean => {
    if (isWindows) return signalZero(pid);
    for (const member of treeOf(pid, table)) seen.add(member.pid);
    return table.some((p) => !p.zombie && seen.has(p.pid));
  };
  const signalAll = (signal: NodeJS.Signals, table?: readonly ProcessInfo[]) => {
    signalProcessTree(pid, signal, table);
    for (const member of seen) if (member !== process.pid) trySignal(member, signal);
  };
  // One read of the table both finds the tree and signals it.
  const first = isWindows ? [] : readProcessTable();
  remaining(first);
  signalAll('SIGTERM', first);
  if (options.exited) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([options.exited, new Promise((resolve) => { timer = setTimeout(resolve, Math.min(graceMs, limitMs)); })]);
    clearTimeout(timer);
  }
  let killed = false;
  while (Date.now() - started < limitMs) {
    if (!remaining()) return true;
    if (!killed && Date.now() - started >= graceMs) {
      signalAll('SIGKILL');
      killed = true;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  signalAll('SIGKILL');
  return !remaining();
}

function trySignal(target: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(target, signal);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signalZero(pid: number): boolean {
  return trySignal(pid, 0);
}
