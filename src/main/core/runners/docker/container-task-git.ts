// One container run's task git dir: made in the desk's data dir before the container starts, its commits taken
// onto the task's branch after every container of the run has ended, then removed. The git dir itself is the local
// sandbox's (../../git/task-git-dir.ts); this file only places it for containers.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DeskError } from '../../../../shared/desk-error';
import type { GitRunner } from '../../git/git-runner';
import { openTaskGitDir } from '../../git/task-git-dir';
import { TaskGitDirRefused } from '../../git/task-git-dir-plan';
import { containerGitBinds } from './container-git';

/** Below the data dir: every run's task git dir, removed whole by the runner's sweep. */
export function containerRunsRoot(dataDir: string): string {
  return join(dataDir, 'ct');
}

export interface ContainerTaskGit {
  /** Where this run's files live on the Docker host: containers that mount it belong to this run. */
  readonly root: string;
  /** The container's git binds (see container-git.ts). */
  readonly binds: readonly string[];
  /** After every container of the run ended: the agent's own commits taken onto the task's branch, if they check out. */
  takeCommits(log: (line: string) => void): Promise<string | undefined>;
  close(): Promise<void>;
}

export async function openContainerTaskGit(git: GitRunner, request: { dataDir: string; commonDir: string; worktree: string; worktreeGitDir: string }): Promise<ContainerTaskGit> {
  const root = join(containerRunsRoot(request.dataDir), randomBytes(6).toString('hex'));
  await mkdir(root, { recursive: true, mode: 0o700 });
  const taskGitDir = await openTaskGitDir(git, { dir: join(root, 'git'), commonDir: request.commonDir, worktree: request.worktree, worktreeGitDir: request.worktreeGitDir }).catch(async (error: unknown) => {
    await rm(root, { recursive: true, force: true }).catch(() => undefined);
    if (error instanceof TaskGitDirRefused) {
      throw new DeskError('conflict', 'worktree_tampered', `The task's worktree ${request.worktree} cannot run: ${error.message}. Resubmit the task to start again.`);
    }
    throw error;
  });
  return {
    root,
    binds: containerGitBinds({ commonDir: request.commonDir, worktree: request.worktree, taskGitDir, exists: existsSync }),
    takeCommits: (log) => taskGitDir.takeCommits(log).catch((error: unknown) => {
      log(`The agent's own commits were not taken: ${error instanceof Error ? error.message : String(error)}. The files it left are committed as the turn's work.`);
      return undefined;
    }),
    close: () => rm(root, { recursive: true, force: true }).catch(() => undefined),
  };
}
