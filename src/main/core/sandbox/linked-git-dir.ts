// Before a run: the worktree's own git dir, as its `.git` file names it, taken only from the repository's worktrees.
import { realpathSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { DeskError } from '../../../shared/desk-error';
import { readPlainSync } from '../git/plain-file';
import { isWithin } from './sandbox-layout';

/** The same cause as git's worktreeTampered, found before the run instead of at commit time. */
export const worktreeLinkChanged = (message: string) => new DeskError('conflict', 'worktree_tampered', message);

/**
 * The worktree's own git dir, read from its `.git` file, and refused unless it lies in the repository's
 * `worktrees/` (a rewritten file would otherwise hand the agent another repository, writable).
 */
export async function linkedGitDir(worktree: string, gitCommonDir: string): Promise<string> {
  const file = join(worktree, '.git');
  // Blocking reads that refuse a link or a FIFO put in its place (../git/plain-file.ts): microseconds, once per run.
  const read = readPlainSync(file, 64 * 1024);
  const text = read === 'missing' || read === 'odd' ? '' : read;
  const match = /^gitdir: (.+)$/m.exec(text);
  const target = match?.[1] ? resolve(worktree, match[1].trim()) : undefined;
  const real = target ? realOrUndefined(target) : undefined;
  if (!real || !isAbsolute(real) || !isWithin(real, join(gitCommonDir, 'worktrees')) || real === join(gitCommonDir, 'worktrees')) {
    throw worktreeLinkChanged(`${file} was changed: it no longer leads to this repository's worktrees, so the task cannot run in it.`);
  }
  return real;
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}
