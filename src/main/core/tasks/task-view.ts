// How a stored task is shown to clients: the summary `GET /` lists and the detail of `GET /tasks/<id>`. Pure.
import { firstLineOf, type TaskDetail, type TaskStatus, type TaskSummary } from '../../../shared/task';
import type { TaskRecord } from '../store/tasks-repo';
import { blockedReason, unmetDependencies } from './dependency-graph';

export function toSummary(task: TaskRecord): TaskSummary {
  return {
    id: task.id,
    submittedAt: task.submittedAt,
    status: task.status,
    ...(task.commit !== undefined && { commit: task.commit }),
    title: firstLineOf(task.prompt),
    agent: task.agent,
    dependencies: task.dependencies,
    review: task.review,
    updatedAt: task.updatedAt,
  };
}

export function toDetail(task: TaskRecord, statusOf: (id: string) => TaskStatus | undefined): TaskDetail {
  const unmet = unmetDependencies(task.dependencies, statusOf);
  const blockedBy = task.status === 'queued' ? blockedReason(unmet) : undefined;
  return {
    ...toSummary(task),
    prompt: task.prompt,
    unmetDependencies: unmet,
    ...(blockedBy !== undefined && { blockedBy }),
    ...(task.branch !== undefined && { branch: task.branch }),
    baseBranch: task.baseBranch,
    ...(task.worktreePath !== undefined && { worktreePath: task.worktreePath }),
    ...(task.errorMessage !== undefined && { errorMessage: task.errorMessage }),
    ...(task.startedAt !== undefined && { startedAt: task.startedAt }),
    ...(task.finishedAt !== undefined && { finishedAt: task.finishedAt }),
    attempt: task.attempt,
    ...(task.agentPid !== undefined && { agentPid: task.agentPid }),
  };
}
