// A run whose writes meet a full disk ends in error saying "Disk full", where and what to free, instead of failing
// with whatever git or the file system said (or committing an agent's work cut short by the full disk).
import { dirname } from 'node:path';
import { diskFullError, diskFullMessage, freeBytes, isDiskFull, mountPointOf, type FullDiskPlace } from '../host/disk-full';
import type { GitService } from '../git/git-service';
import type { TaskRecord } from '../store/tasks-repo';
import type { RunContext, RunOutcome } from './task-runner';

/** Below this many free bytes a file system counts as full: an agent's write just failed there, or is about to. */
export const FULL_BELOW_BYTES = 256 * 1024;

export interface DiskFullRunDeps {
  dataDir: string;
  /** The git dir of the task's repository (the person's), where a commit's objects are written. */
  repoGitDirOf?(task: TaskRecord): string | undefined;
  /** Where the task's writes in `worktree` land when not in the worktree's own folder: a layer's upper dir. */
  writesOf?(worktree: string): Promise<string | undefined>;
  /** The data dir's folder of task layers, where a layer is made (before `writesOf` knows it). */
  layersDir?: string;
  /** Free bytes on the file system holding a path (statfs); replaced in tests. */
  freeBytes?: (path: string) => Promise<number | undefined>;
}

export function diskFullRun(run: (context: RunContext) => Promise<RunOutcome>, deps: DiskFullRunDeps): (context: RunContext) => Promise<RunOutcome> {
  const statfs = deps.freeBytes ?? freeBytes;
  // A worktree's room is that of the file system its writes land on: a layer's is its upper dir's, in the data dir.
  const writesOf = async (path: string) => (await deps.writesOf?.(path).catch(() => undefined)) ?? path;
  const free = async (path: string) => statfs(await writesOf(path));
  const mountOf = async (path: string) => mountPointOf(await writesOf(path));
  return async (context) => {
    let worktree = context.task.worktreePath;
    const git = roomCheckedGit(context.git, free, mountOf);
    const update: RunContext['update'] = (patch) => {
      if (patch.worktreePath) worktree = patch.worktreePath;
      context.update(patch);
    };
    const places = () => ({ worktree: worktree ?? context.git.worktreePathFor(context.task.id), repoGitDir: deps.repoGitDirOf?.(context.task), layersDir: deps.layersDir, dataDir: deps.dataDir });
    let outcome: RunOutcome;
    try {
      outcome = await run({ ...context, git, update });
    } catch (error) {
      if (!isDiskFull(error)) throw error;
      return { status: 'error', message: await describe(error, places(), free, mountOf) };
    }
    if (outcome.status !== 'error' || !isDiskFull(outcome.message) || outcome.message.startsWith('Disk full')) return outcome;
    return { ...outcome, message: await describe(outcome.message, places(), free, mountOf) };
  };
}

/**
 * The task's git service, refusing to commit from a worktree whose file system is full: whatever the agent wrote last
 * was likely cut short there, and committing it would hand a person a truncated file as finished work.
 */
function roomCheckedGit(git: GitService, free: (path: string) => Promise<number | undefined>, mountOf: (path: string) => Promise<string | undefined>): GitService {
  const assertRoom = async (worktree: string) => {
    const left = await free(worktree);
    if (left !== undefined && left < FULL_BELOW_BYTES) throw diskFullError({ what: "the agent's work in the task's worktree", path: worktree }, await mountOf(worktree));
  };
  return {
    ...git,
    commitAll: async (worktree, message) => { await assertRoom(worktree); return git.commitAll(worktree, message); },
    commitChanges: async (worktree, message) => { await assertRoom(worktree); return git.commitChanges(worktree, message); },
  };
}

interface Places { worktree: string; repoGitDir: string | undefined; layersDir: string | undefined; dataDir: string }

/**
 * Which file system ran out (the worktree's, the person's repository's, where git writes a commit's objects, or the
 * data dir's: the first that has no room now), in the desk's words.
 */
async function describe(error: unknown, places: Places, free: (path: string) => Promise<number | undefined>, mountOf: (path: string) => Promise<string | undefined>): Promise<string> {
  if (error instanceof Error && error.message.startsWith('Disk full')) return error.message;
  const detail = error instanceof Error ? error.message : String(error);
  const { worktree, repoGitDir, layersDir, dataDir } = places;
  const full = await fullPlace(worktree, repoGitDir, free) ?? await fullLayers(layersDir, free) ?? { what: "the desk's data", path: dataDir };
  return `${diskFullMessage(full, await (full.path === worktree ? mountOf(worktree) : mountPointOf(full.path)))}\n${detail.trim()}`;
}

/** The task layers' folder when its file system is the full one (a layer not made yet has no upper dir to ask). */
async function fullLayers(layersDir: string | undefined, free: (path: string) => Promise<number | undefined>): Promise<FullDiskPlace | undefined> {
  if (layersDir === undefined) return undefined;
  const left = await free(layersDir);
  return left !== undefined && left < FULL_BELOW_BYTES ? { what: "the tasks' copy-on-write layers", path: layersDir } : undefined;
}

async function fullPlace(worktree: string, repoGitDir: string | undefined, free: (path: string) => Promise<number | undefined>): Promise<FullDiskPlace | undefined> {
  // A worktree that could not be made is not there to ask: its parent is on the same file system.
  const worktreeLeft = (await free(worktree)) ?? (await free(dirname(worktree)));
  if (worktreeLeft === undefined || worktreeLeft < FULL_BELOW_BYTES) return { what: "the task's worktree", path: worktree };
  if (repoGitDir === undefined) return undefined;
  const repoLeft = await free(repoGitDir);
  return repoLeft !== undefined && repoLeft < FULL_BELOW_BYTES ? { what: "the task's commits in your repository", path: repoGitDir } : undefined;
}
