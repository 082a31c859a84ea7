// Sandboxes a killed desk left running. bubblewrap ties a sandbox's life to the desk with PR_SET_PDEATHSIG, but the
// sandbox's init (PID 1 of its namespace) sets that only after its setup: a desk killed inside that window leaves the
// sandbox running, still confined yet watched by no one. Seen with bubblewrap 0.8; upstream's code is the same through
// 0.11, and its later fix for this race reads getppid(), which is 0 for a namespace's init. The next desk on the same
// data dir ends these sandboxes before it runs anything.
import { readdirSync, realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import { commandLineOf, processExists } from '../agents/process-tree';
import { readProcessTable } from '../agents/process-table';

/** Where each run's sandbox keeps its temp dir and sockets: one folder per run. */
export function sandboxRootOf(dataDir: string): string {
  return join(dataDir, 'sb');
}

/**
 * Whether a process is one of this desk's sandboxes: bubblewrap, with an option naming a path below the sandbox
 * root (every run binds its temp dir from there). Only bwrap's own options count, never the command after `--`,
 * which holds whatever an agent or a person asked to run.
 */
export function isLeftoverSandbox(commandLine: readonly string[], sandboxRoots: readonly string[]): boolean {
  const [program] = commandLine;
  if (program === undefined || basename(program) !== 'bwrap') return false;
  const end = commandLine.indexOf('--');
  if (end === -1) return false;
  return commandLine.slice(1, end).some((option) => sandboxRoots.some((root) => option.startsWith(`${root}/`)));
}

/**
 * Kills (SIGKILL: a sandbox's init ends everything in its namespace as it dies) every sandbox of this data dir that
 * is still running, and waits up to `timeoutMs` for them to be gone. Call it only before this desk starts any task:
 * one desk holds a data dir at a time (../host/instance-lock.ts), so until then every sandbox of it is a leftover.
 * Resolves with how many processes it signalled.
 */
export async function endLeftoverSandboxes(dataDir: string, options: { timeoutMs?: number } = {}): Promise<number> {
  if (process.platform !== 'linux') return 0;
  // A desk that stopped cleanly removed every run's folder: no folder, no sandbox to look for (and no process
  // table to read on the way to the first answer).
  if (!hasRunFolders(sandboxRootOf(dataDir))) return 0;
  const roots = sandboxRootsOf(dataDir);
  const leftovers = readProcessTable()
    .filter((entry) => !entry.zombie && entry.pid !== process.pid)
    .map((entry) => entry.pid)
    .filter((pid) => isLeftoverSandbox(commandLineOf(pid) ?? [], roots));
  for (const pid of leftovers) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // It ended meanwhile.
    }
  }
  const deadline = Date.now() + (options.timeoutMs ?? 2000);
  while (leftovers.some(processExists) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  return leftovers.length;
}

function hasRunFolders(root: string): boolean {
  try {
    return readdirSync(root).length > 0;
  } catch {
    return false;
  }
}

/** The root as this desk spells it and, when a symlink leads there, as it really is: a restart may spell it either way. */
function sandboxRootsOf(dataDir: string): string[] {
  const root = sandboxRootOf(dataDir);
  try {
    const real = realpathSync(root);
    return real === root ? [root] : [root, real];
  } catch {
    return [root];
  }
}
