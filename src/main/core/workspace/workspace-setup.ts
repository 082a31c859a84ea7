// A new worktree made ready for its agent: the repository's `.desk/config.json` copies what the checkout
// ignores but tasks need and runs its setup command (inside the task's sandbox); cleanup runs before retirement.
import type { TaskEvent } from '../../../shared/events';
import type { TaskIsolation } from '../sandbox/task-sandbox';
import { copyIntoWorktree } from './copy-into-worktree';
import type { RepoConfig } from '../../../shared/repo-config';
import { readRepoConfig } from './repo-config-file';
import { runWorktreeStep } from './run-setup';

export interface WorkspaceStepRequest {
  worktree: string;
  isolation: Pick<TaskIsolation, 'wrap'>;
  env: Record<string, string>;
  record(event: TaskEvent): void;
  log(text: string): void;
  signal?: AbortSignal;
  /** Called before the worktree's files are first used: a checkout left for the agent's launcher is made now. */
  filesReady?(): Promise<void>;
  /** The worktree holds what `copy` names already: a layer over a snapshot of the base, which brought it in. */
  copied?: boolean;
}

export interface WorkspaceSetup {
  /** Copies and sets up; resolves with an error message for the task when setup fails. */
  setUp(request: WorkspaceStepRequest): Promise<{ failed?: string }>;
  /** Runs the cleanup command, if the repository has one; its failure is logged, never fatal. */
  cleanUp(request: WorkspaceStepRequest): Promise<void>;
  /** The repository's settings as a task reads them now: its `.desk/config.json`, else the desk's settings for it. */
  config(): Promise<RepoConfig>;
}

/** `fallback`: the setup the desk's settings give the repository, used when it has no `.desk/config.json`. */
export function createWorkspaceSetup(deps: { repoRoot: string; fallback?: () => RepoConfig | undefined }): WorkspaceSetup {
  return {
    config: () => readRepoConfig(deps.repoRoot, deps.fallback?.()),
    async setUp(request) {
      const config = await readRepoConfig(deps.repoRoot, deps.fallback?.());
      if (config.copy.length > 0 || config.setup) await request.filesReady?.();
      const copied = request.copied ? [] : await copyIntoWorktree(deps.repoRoot, request.worktree, config.copy);
      if (copied.length > 0) request.log(`Setup: copied ${copied.join(', ')} from your checkout`);
      if (!config.setup) return {};
      request.log(`Setup: ${config.setup}`);
      const outcome = await runWorktreeStep({ ...request, step: 'setup', command: config.setup });
      if (outcome.exitCode === 0) return {};
      const how = outcome.signal ? `was stopped by ${outcome.signal}` : `exited with code ${outcome.exitCode}`;
      const tail = outcome.tail.trim().split('\n').slice(-20).join('\n');
      return { failed: `The setup command (${config.setup}) ${how}${tail ? `:\n${tail}` : '.'}` };
    },

    async cleanUp(request) {
      const config = await readRepoConfig(deps.repoRoot, deps.fallback?.()).catch(() => undefined);
      if (!config?.cleanup) return;
      request.log(`Cleanup: ${config.cleanup}`);
      const outcome = await runWorktreeStep({ ...request, step: 'cleanup', command: config.cleanup });
      if (outcome.exitCode !== 0) request.log(`Cleanup failed (exit code ${outcome.exitCode}); the worktree is retired anyway.`);
    },
  };
}
