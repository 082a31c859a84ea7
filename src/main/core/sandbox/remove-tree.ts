// Removing a task's sandbox dir when the run ends: a small tree (its git dir, temp dir, sockets), removed in one pass.
import { readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * How many entries are removed without yielding: a task's own tree holds a few dozen; an agent that filled its temp dir
 * with thousands must not hold up the desk's other work, so past this the rest goes the slower, asynchronous way.
 */
const AT_ONCE = 256;

/**
 * Removes `dir` and all it holds; never follows a link; resolves once it is gone (or was never there).
 * The walk reads each directory once with its entries' types, so nothing is looked at twice and no removal is tried
 * that must fail first (fs.rm's way: rmdir, then readdir on ENOTEMPTY, an lstat per entry, each a round trip).
 */
export async function removeTree(dir: string): Promise<void> {
  let budget = AT_ONCE;
  const walk = (path: string): boolean => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (--budget < 0) return false;
      const inner = join(path, entry.name);
      if (entry.isDirectory()) {
        if (!walk(inner)) return false;
      } else {
        unlinkSync(inner);
      }
    }
    rmdirSync(path);
    return true;
  };
  try {
    if (walk(dir)) return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && budget === AT_ONCE) return;
  }
  // Too big to do at once, or something in the way (a directory the agent made unreadable): the thorough way.
  await rm(dir, { recursive: true, force: true });
}
