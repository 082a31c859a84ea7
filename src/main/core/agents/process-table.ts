// A snapshot of the machine's processes (pid, parent, group, state), so the desk can find an agent's whole tree.
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';

export interface ProcessInfo { pid: number; ppid: number; pgid: number; zombie: boolean }

/** Linux reads /proc; macOS and other Unixes ask `ps`. Windows has no process groups: empty. */
export function readProcessTable(): ProcessInfo[] {
  if (process.platform === 'win32') return [];
  if (process.platform === 'linux') return fromProc();
  const listing = spawnSync('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat='], { encoding: 'utf8' });
  return listing.stdout.split('\n').map((line) => line.trim().split(/\s+/)).filter((f) => f.length >= 4).map(([pid, ppid, pgid, stat]) => ({
    pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), zombie: (stat ?? '').startsWith('Z'),
  }));
}

// One buffer for every read: a stop reads the whole table two or three times, and each read opens every process's
// stat file, so reading into fresh strings (readFileSync) was most of what stopping an agent cost the desk.
const STAT_BUFFER = Buffer.alloc(4096);

function fromProc(): ProcessInfo[] {
  const table: ProcessInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57 || !/^\d+$/.test(entry)) continue;
    const stat = readStat(`/proc/${entry}/stat`);
    // Undefined: the process ended while we looked.
    if (stat === undefined) continue;
    // The command name (2nd field) may hold spaces and parentheses: read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ', 3);
    table.push({ pid: Number(entry), ppid: Number(fields[1]), pgid: Number(fields[2]), zombie: fields[0] === 'Z' });
  }
  return table;
}

function readStat(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const length = readSync(fd, STAT_BUFFER, 0, STAT_BUFFER.length, 0);
    // A stat line is a few hundred bytes; one that fills the buffer is read the long way.
    return length < STAT_BUFFER.length ? STAT_BUFFER.toString('latin1', 0, length) : readFileSync(path, 'latin1');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Every live process that belongs to the tree of `root`: its descendants, and every member of the
 * process groups led by them (children re-parented after their parent died stay in its group).
 */
export function treeOf(root: number, table: readonly ProcessInfo[]): ProcessInfo[] {
  const live = table.filter((p) => !p.zombie);
  const members = new Map<number, ProcessInfo>();
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    for (const p of live) {
      if ((p.pid === pid || p.ppid === pid || p.pgid === pid) && !members.has(p.pid)) {
        members.set(p.pid, p);
        if (p.pid !== pid) pending.push(p.pid);
      }
    }
  }
  return [...members.values()];
}
