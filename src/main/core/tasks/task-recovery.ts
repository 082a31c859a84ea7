// After a restart: the tasks that were running when the desk stopped run again from a clean worktree, once any agent
// they left behind is ended and their open governance requests are closed.
import { isActive } from './task-state';
import type { AgentRegistry } from '../agents/agent-registry';
import type { PermissionGate } from './agent-requests';
import type { TaskPatch, TaskRecord } from '../store/tasks-repo';
import type { TaskGraph } from './task-graph';
import { reapOrphan } from './orphans';

export interface TaskRecoveryDeps {
  graph: Pick<TaskGraph, 'nodes'>;
  mustGet(id: string): TaskRecord;
  agents: Pick<AgentRegistry, 'get'>;
  gate: Pick<PermissionGate, 'closeOpen'>;
  save(id: string, patch: TaskPatch): TaskRecord;
  log(task: TaskRecord, text: string, level?: 'info' | 'warn' | 'error'): void;
}

/** Re-queues every task the graph holds as active, oldest first. */
export async function recoverInterruptedTasks(deps: TaskRecoveryDeps): Promise<void> {
  const active = [...deps.graph.nodes()].filter((task) => isActive(task.status)).sort((a, b) => a.seq - b.seq).map((task) => deps.mustGet(task.id));
  for (const task of active) {
    if (task.agentPid !== undefined) await reapOrphan(task, deps.agents);
    deps.gate.closeOpen(task.id);
    const requeued = deps.save(task.id, { status: 'queued', agentPid: null });
    deps.log(requeued, 'The desk stopped while this task ran; it will run again from a clean worktree.', 'warn');
  }
}
