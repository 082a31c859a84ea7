// After a restart: the tasks that were running when the desk stopped run again from a clean worktree, once any agent
// they left behind is ended and their open governance requests are closed. A task whose attempts run is not run
// itself: its attempts are (./task-attempts.ts resumes following them), and its note says so.
import { isActive } from './task-state';
import type { AgentRegistry } from '../agents/agent-registry';
import type { PermissionGate } from './agent-requests';
import { JUDGE_N, type TaskPatch, type TaskRecord } from '../store/tasks-repo';
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
    deps.log(requeued, recoveryNote(task), 'warn');
  }
}

/** What the activity says of a task the desk stopped while it was active (`task` as it was then). */
export function recoveryNote(task: Pick<TaskRecord, 'status' | 'attempts' | 'attemptOf'>): string {
  if (task.attemptOf?.n === JUDGE_N) return 'The desk stopped while the judge compared the attempts; it judges them again from a clean worktree.';
  if (task.attempts && task.attempts.chosen === undefined) {
    if (task.status === 'awaiting-input') return 'The desk stopped while it asked which attempt to keep; it asks again.';
    const judging = task.attempts.judgeStarted && !task.attempts.recommendation && task.attempts.judgeNote === undefined;
    return judging
      ? 'The desk stopped while the judge compared the attempts; it judges them again.'
      : 'The desk stopped while the attempts ran: those that had not ended run again from clean worktrees, those that had keep their work.';
  }
  return 'The desk stopped while this task ran; it will run again from a clean worktree.';
}
