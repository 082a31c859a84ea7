// Removing a task's sandbox dir when the run ends: a small tree (its git dir, temp dir, sockets), removed in one pass.
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
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !(error as NodeJS.ErrnoException).path?.startsWith(`${dir}/`)) return;
    // Something in the way (a directory the agent made unreadable, an entry removed meanwhile): the thorough way.
    await rm(dir, { recursive: true, force: true });
  }
}

async function removeEntries(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  await Promise.all(entries.map((entry) => (entry.isDirectory() ? removeEntries(join(dir, entry.name)) : unlink(join(dir, entry.name)))));
  await rmdir(dir);
}
