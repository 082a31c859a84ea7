// What the repository's check leaves in the worktree (a report, a cache git does not ignore, a file a formatter touched)
// is not the agent's work: after the check, files it added are removed and tracked files it changed are put back as the
// turn's commit has them, so a follow-up's commit holds only what agents did. Only what appeared during the check is
// touched: the worktree is read (as a commit would take it) before and after.
import { lstat, realpath, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, isAbsolute } from 'node:path';
import type { FileDiff } from '../../../shared/review';
import { resolvedThrough } from '../agents/view-paths';
import type { GitService } from '../git/git-service';

/** What was swept: files removed or put back, and those left as they are (with why). */
export interface CheckSweep { removed: string[]; restored: string[]; left: string[] }

/**
 * Reads the worktree against `head` (the commit it holds) before the check; the function it answers sweeps what the
 * check changed since. Without a head, or when the worktree cannot be read, the sweep does nothing. `reach`: how the
 * desk reaches the worktree's files when they are a layer (their folder on disk holds only `.git`).
 */
export async function watchCheckLeftovers(git: Pick<GitService, 'liveDiff'>, worktree: string, head: string | undefined, reach?: (path: string) => string): Promise<() => Promise<CheckSweep>> {
  const nothing = async (): Promise<CheckSweep> => ({ removed: [], restored: [], left: [] });
  if (head === undefined) return nothing;
  const before = await git.liveDiff(worktree, head).catch(() => undefined);
  if (!before) return nothing;
  const earlier = new Map(before.files.map((file) => [file.path, stateOf(file)]));
  return async () => {
    const after = await git.liveDiff(worktree, head).catch(() => undefined);
    const sweep: CheckSweep = { removed: [], restored: [], left: [] };
    for (const file of after?.files ?? []) {
      // Changed before the check too (an agent's file the commit left out): not the check's.
      if (earlier.get(file.path) === stateOf(file)) continue;
      const inView = join(worktree, file.path);
      const path = reach ? reach(inView) : inView;
      if (!(await insideWorktree(worktree, inView, reach))) {
        sweep.left.push(file.path);
      } else if (file.status === 'added' && !earlier.has(file.path)) {
        await rm(path, { force: true });
        sweep.removed.push(file.path);
      } else if (file.status === 'modified' && !earlier.has(file.path) && !file.binary && file.oldText !== undefined && (await lstat(path)).isFile()) {
        await writeFile(path, file.oldText);
        sweep.restored.push(file.path);
      } else {
        sweep.left.push(file.path);
      }
    }
    return sweep;
  };
}

/** A file's change as it stood, so a change made again by the check is told from the same change left from before. */
const stateOf = (file: FileDiff) => `${file.status}:${file.additions}:${file.deletions}:${file.newText?.length ?? ''}`;

/** Whether `path`'s folder is really inside the worktree (no link leads out of it), as the task's processes see it. */
async function insideWorktree(worktree: string, path: string, reach?: (path: string) => string): Promise<boolean> {
  try {
    if (reach) {
      const inner = relative(worktree, resolvedThrough(dirname(path), worktree, reach));
      return inner === '' || (!inner.startsWith('..') && !isAbsolute(inner));
    }
    const [root, folder] = await Promise.all([realpath(worktree), realpath(dirname(path))]);
    const inner = relative(root, folder);
    return inner === '' || (!inner.startsWith('..') && !isAbsolute(inner));
  } catch {
    return false;
  }
}

/** The activity's line for a sweep that did something, or undefined. */
export function sweepText(sweep: CheckSweep): string | undefined {
  const parts = [
    sweep.removed.length > 0 && `removed ${sweep.removed.join(', ')}`,
    sweep.restored.length > 0 && `put back ${sweep.restored.join(', ')} as committed`,
    sweep.left.length > 0 && `left ${sweep.left.join(', ')} (a follow-up's commit would include ${sweep.left.length === 1 ? 'it' : 'them'})`,
  ].filter((part): part is string => typeof part === 'string');
  return parts.length === 0 ? undefined : `What the check wrote is not the agent's work: ${parts.join('; ')}.`;
}
