// Ending an agent's whole process tree, and recognising one left behind by a crashed desk.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const isWindows = process.platform === 'win32';

/** True while a process with this pid exists (it may belong to anyone). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Signals every process in the group that `pid` leads (agents are spawned as group leaders),
 * and the leader itself in case it left the group. On Windows, `taskkill /T` walks the tree.
 */
export function signalProcessTree(pid: number, signal: NodeJS.Signals): void {
  if (isWindows) {
    spawnSync('taskkill', ['/PID', String(pid), '/T', '/F'], { stdio: 'ignore' });
    return;
  }
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, signal);
    } catch {
      // Already gone.
    }
  }
}

/** True while any process of the group led by `pid` is alive. */
export function processGroupAlive(pid: number): boolean {
  if (isWindows) return processExists(pid);
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
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

/** Sends SIGTERM to the tree, then SIGKILL after `graceMs`; resolves once the group is gone or `limitMs` passed. */
export async function endProcessTree(pid: number, options: { graceMs?: number; limitMs?: number } = {}): Promise<boolean> {
  const graceMs = options.graceMs ?? 1000;
  const limitMs = options.limitMs ?? 2500;
  const started = Date.now();
  signalProcessTree(pid, 'SIGTERM');
  let killed = false;
  while (Date.now() - started < limitMs) {
    if (!processGroupAlive(pid)) return true;
    if (!killed && Date.now() - started >= graceMs) {
      signalProcessTree(pid, 'SIGKILL');
      killed = true;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  signalProcessTree(pid, 'SIGKILL');
  return !processGroupAlive(pid);
}
