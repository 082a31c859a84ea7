// Removing a task's sandbox dir when the run ends: a small tree (its git dir, temp dir, sockets), removed in one pass.
import { readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import { readdir, rm, rmdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Removes `dir` and all it holds; never follows a link; resolves once it is gone (or was never there).
 * Each directory is read once with its entries' types, so nothing is looked at twice and no removal is tried that
 * must fail first: half the file system calls of fs.rm (an lstat per entry, an rmdir that fails before the readdir).
 * Off the event loop like fs.rm: on a busy disk one unlink can take milliseconds.
 */
export async function removeTree(dir: string): Promise<void> {
  try {
    await removeEntries(dir);
  } catch (error) {
    if (rootWasMissing(error, dir)) return;
    // Something in the way (a directory the agent made unreadable, an entry removed meanwhile): the thorough way.
    await rm(dir, { recursive: true, force: true });
  }
}

async function removeEntries(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  await Promise.all(entries.map((entry) => (entry.isDirectory() ? removeEntries(join(dir, entry.name)) : unlink(join(dir, entry.name)))));
  await rmdir(dir);
}

/**
 * Like removeTree, but done on the calling thread while the tree is small (up to `budget` entries): for a run's folder
 * on a memory file system, where a removal takes microseconds and a trip through the thread pool costs more than the
 * work. A bigger tree (an agent's git dir filled with objects) goes to removeTree, off the event loop, from where this
 * stopped: no agent can hold the desk's thread with a million files.
 */
export async function removeSmallTreeNow(dir: string, budget = 256): Promise<void> {
  try {
    removeEntriesSync(dir, { left: budget });
  } catch (error) {
    if (rootWasMissing(error, dir)) return;
    // Too big, or something in the way: the rest off the event loop.
    await removeTree(dir);
  }
}

class OverBudget extends Error {}

function removeEntriesSync(dir: string, budget: { left: number }): void {
  const entries = readdirSync(dir, { withFileTypes: true });
  budget.left -= entries.length;
  if (budget.left < 0) throw new OverBudget(`${dir} holds too many entries to remove on the desk's thread`);
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) removeEntriesSync(path, budget);
    else unlinkSync(path);
  }
  rmdirSync(dir);
}

/** The tree was never there (or is gone): an ENOENT about `dir` itself, not about something in it. */
function rootWasMissing(error: unknown, dir: string): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT' && !(error as NodeJS.ErrnoException).path?.startsWith(`${dir}/`);
}
