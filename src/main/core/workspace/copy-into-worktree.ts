// Copies what the repository ignores but tasks need (`.env`, dependency folders) from the person's checkout
// into a new worktree, as clones where the file system can (copy-on-write), plain copies where it cannot.
import { constants } from 'node:fs';
import { cp, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import picomatch from 'picomatch';

/** Folders not walked into when matching globs: big ones a glob must name to reach. */
const NOT_WALKED = new Set(['node_modules']);

/** Copies every path under `from` matching `globs` to the same place under `to`; returns the paths copied. */
export async function copyIntoWorktree(from: string, to: string, globs: readonly string[]): Promise<string[]> {
  if (globs.length === 0) return [];
  const matches = picomatch([...globs], { dot: true });
  const copied: string[] = [];
  const visit = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      // The worktree's own `.git` links it to the repository: never replaced by a copy.
      if (entry.name === '.git') continue;
      const path = join(dir, entry.name);
      const rel = relative(from, path).split(sep).join('/');
      if (matches(rel)) {
        // COPYFILE_FICLONE clones where the file system supports it (btrfs, xfs, APFS) and copies otherwise.
        await cp(path, join(to, rel), { recursive: true, mode: constants.COPYFILE_FICLONE, force: true, verbatimSymlinks: true });
        copied.push(rel);
      } else if (entry.isDirectory() && !NOT_WALKED.has(entry.name)) {
        await visit(path);
      }
    }
  };
  await visit(from);
  return copied;
}
