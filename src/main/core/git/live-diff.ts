// What a task's worktree holds right now against the commit it started from, committed or not: the diff a person
// reads while the agent works or waits for an answer. Made on demand (one `add` and one `write-tree`), never per event.
import { randomUUID } from 'node:crypto';
import { copyFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { TaskDiff } from '../../../shared/review';
import type { GitRepo, GitRunner } from './git-runner';
import { taskDiff } from './task-diff';
import { ALL_BUT_LOCAL_FILES } from './vendor-local-files';

/**
 * Stages the whole worktree into a scratch copy of its index and diffs the tree that makes against `base`. The
 * worktree's own index is never written, so an agent's `git add` or `git status` in the middle of its turn sees
 * nothing of it; the copy keeps git's stat cache, so unchanged files are not read again.
 */
export async function liveDiff(git: GitRunner, worktree: GitRepo, base: string, scratchDir: string): Promise<TaskDiff> {
  const indexFile = join(scratchDir, `live-index-${randomUUID()}`);
  try {
    await copyFile(join(worktree.gitDir, 'index'), indexFile).catch((error: unknown) => {
      // A worktree whose index is gone (nothing staged ever) is read from scratch.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    });
    // What the commit will hold: never an agent's vendor-local files.
    await git.run(worktree, ['add', '--all', ...ALL_BUT_LOCAL_FILES], { indexFile });
    const tree = await git.run(worktree, ['write-tree'], { indexFile });
    return { ...(await taskDiff(git, worktree, base, tree)), live: true };
  } finally {
    await rm(indexFile, { force: true });
  }
}
