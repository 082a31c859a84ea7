// The processes a real agent left: found by a variable only that agent's environment holds (its temp HOME, its
// dummy key, its stand-in's address), since children inherit it wherever they run, sandboxed or not. Linux (/proc).
import { readdirSync, readFileSync } from 'node:fs';

/** Live processes (zombies left out, this one too) whose environment holds `NAME=value`, with their command lines. */
export function processesWithEnv(name: string, value: string): { pid: number; command: string }[] {
  const wanted = `${name}=${value}`;
  const found: { pid: number; command: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (!readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(wanted)) continue;
      found.push({ pid: Number(entry), command: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim() });
    } catch {
      // A process that ended while the table was read, or one not ours to read: neither is the agent's.
    }
  }
  return found;
}
