// The repository's cleanup command (`.desk/config.json`) in a task's worktree before it is retired, confined like
// the task's agent, and then the task's layers of agent state. Never fatal: the worktree is retired (its work archived)
// whatever the cleanup did.
import { existsSync } from 'node:fs';
import type { TaskEvent } from '../../../shared/events';
import { agentEnvironment } from '../agents/agent-environment';
import type { AgentRegistry } from '../agents/agent-registry';
import type { AgentSpec } from '../agents/agent-spec';
import type { TaskSandbox } from '../sandbox/task-sandbox';
import type { TaskRecord } from '../store/tasks-repo';
import type { WorkspaceSetup } from '../workspace/workspace-setup';

export interface CleanUpDeps {
  agents: Pick<AgentRegistry, 'get'>;
  sandbox: Pick<TaskSandbox, 'isolate'>;
  workspace: Pick<WorkspaceSetup, 'cleanUp'>;
  record(event: TaskEvent): void;
  log(text: string, level?: 'info' | 'warn'): void;
  /** Removes the task's layers of agent state (../sandbox/state-layers.ts): no later turn can continue without the worktree. */
  forgetState?(taskId: string): Promise<void>;
}

export async function cleanUpWorktree(task: TaskRecord, deps: CleanUpDeps): Promise<void> {
  const spec = deps.agents.get(task.agent);
  const worktree = task.worktreePath;
  try {
    await cleanUpIn(task, worktree, spec, deps);
  } finally {
    await deps.forgetState?.(task.id).catch(() => undefined);
  }
}

async function cleanUpIn(task: TaskRecord, worktree: string | undefined, spec: AgentSpec | undefined, deps: CleanUpDeps): Promise<void> {
  if (!worktree || !spec || !existsSync(worktree)) return;
  try {
    const isolation = await deps.sandbox.isolate({ taskId: task.id, worktree, agent: spec, log: (text, level = 'warn') => deps.log(text, level) });
    try {
      const env = { ...agentEnvironment(process.env, spec), ...isolation.env };
      await deps.workspace.cleanUp({ worktree, isolation, env, record: deps.record, log: (text) => deps.log(text) });
    } finally {
      await isolation.dispose();
    }
  } catch (error) {
    deps.log(`Cleanup did not run: ${error instanceof Error ? error.message : String(error)}`, 'warn');
  }
}
