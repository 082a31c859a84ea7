// A run whose writes meet a full disk ends in error saying "Disk full", where and what to free, instead of failing
// with whatever git or the file system said (or committing an agent's work cut short by the full disk).
import { dirname } from 'node:path';
import { diskFullError, diskFullMessage, freeBytes, isDiskFull, mountPointOf } from '../host/disk-full';
import type { GitService } from '../git/git-service';
import type { RunContext, RunOutcome } from './task-runner';

/** Below this many free bytes a file system counts as full: an agent's write just failed there, or is about to. */
export const FULL_BELOW_BYTES = 256 * 1024;

export interface DiskFullRunDeps {
  dataDir: string;
  /** Free bytes on the file system holding a path (statfs); replaced in tests. */
  freeBytes?: (path: string) => Promise<number | undefined>;
}

export function diskFullRun(run: (context: RunContext) => Promise<RunOutcome>, deps: DiskFullRunDeps): (context: RunContext) => Promise<RunOutcome> {
  const free = deps.freeBytes ?? freeBytes;
  return async (context) => {
    let worktree = context.task.worktreePath;
    const git = roomCheckedGit(context.git, free);
    const update: RunContext['update'] = (patch) => {
      if (patch.worktreePath) worktree = patch.worktreePath;
      context.update(patch);
    };
    let outcome: RunOutcome;
    try {
      outcome = await run({ ...context, git, update });
    } catch (error) {
      if (!isDiskFull(error)) throw error;
      return { status: 'error', message: await describe(error, worktree ?? context.git.worktreePathFor(context.task.id), deps.dataDir, free) };
    }
    if (outcome.status !== 'error' || !isDiskFull(outcome.message) || outcome.message.startsWith('Disk full')) return outcome;
    return { ...outcome, message: await describe(outcome.message, worktree ?? context.git.worktreePathFor(context.task.id), deps.dataDir, free) };
  };
}

/**
 * The task's git service, refusing to commit from a worktree whose file system is full: whatever the agent wrote last
 * was likely cut short there, and committing it would hand a person a truncated file as finished work.
 */
function roomCheckedGit(git: GitService, free: (path: string) => Promise<number | undefined>): GitService {
  const assertRoom = async (worktree: string) => {
    const left = await free(worktree);
    if (left !== undefined && left < FULL_BELOW_BYTES) throw diskFullError({ what: "the agent's work in the task's worktree", path: worktree }, await mountPointOf(worktree));
  };
  return {
    ...git,
    commitAll: async (worktree, message) => { await assertRoom(worktree); return git.commitAll(worktree, message); },
    commitChanges: async (worktree, message) => { await assertRoom(worktree); return git.commitChanges(worktree, message); },
  };
}

/** Which file system ran out (the worktree's or the data dir's, whichever has no room now), in the desk's words. */
async function describe(error: unknown, worktree: string, dataDir: string, free: (path: string) => Promise<number | undefined>): Promise<string> {
  if (error instanceof Error && error.message.startsWith('Disk full')) return error.message;
  const detail = error instanceof Error ? error.message : String(error);
  // A worktree that could not be made is not there to ask: its parent is on the same file system.
  const worktreeLeft = (await free(worktree)) ?? (await free(dirname(worktree)));
  const full = worktreeLeft === undefined || worktreeLeft < FULL_BELOW_BYTES ? { what: "the task's worktree", path: worktree } : { what: "the desk's data", path: dataDir };
  return `${diskFullMessage(full, await mountPointOf(full.path))}\n${detail.trim()}`;
}
