// How a stored task is shown to clients: the summary `GET /` lists and the detail of `GET /tasks/<id>`. Pure.
import type { OpenQuestion } from '../../../shared/questions';
import { firstLineOf, type AttemptBrief, type AttemptView, type TaskDetail, type TaskSummary } from '../../../shared/task';
import { JUDGE_N, type TaskRecord } from '../store/tasks-repo';
import type { TurnRecord } from '../store/turns-repo';
import { blockedReason, unmetDependencies } from './dependency-graph';
import type { DependencyStateOf } from './scheduler';

/**
 * `unsandboxed`: the task's agent runs without the OS sandbox (none on this machine, or the policy turns it off);
 * an agent on another runner is confined by its container instead.
 */
export function toSummary(task: TaskRecord, openQuestions: readonly OpenQuestion[] = [], unsandboxed = false, blockedBy?: string, quietSince?: string, attemptsBrief?: AttemptBrief[]): TaskSummary {
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
    ...(openQuestions.length > 0 && { openQuestions: [...openQuestions] }),
    ...(blockedBy !== undefined && { blockedBy }),
    ...(task.after === 'approved' && { after: 'approved' as const }),
    ...(unsandboxed && task.runner === undefined && { unsandboxed: true as const }),
    ...(task.runner !== undefined && task.runner !== 'local' && { runner: task.runner }),
    ...(task.conflict !== undefined && { conflict: task.conflict }),
    ...(task.push !== undefined && { push: task.push }),
    ...(task.pullRequest !== undefined && { pullRequest: task.pullRequest }),
    ...(task.repo !== undefined && { repo: task.repo }),
    ...(task.archivedAt !== undefined && { archived: true as const }),
    ...(task.startedAt !== undefined && { startedAt: task.startedAt }),
    ...(task.finishedAt !== undefined && { finishedAt: task.finishedAt }),
    workingMs: task.workingMs,
    ...(task.workingSince !== undefined && { workingSince: task.workingSince }),
    ...(task.lastActivity !== undefined && { lastActivity: task.lastActivity }),
    ...(task.agentInfo !== undefined && { agentInfo: task.agentInfo }),
    ...(quietSince !== undefined && { quietSince }),
    ...(task.proposedBy !== undefined && { proposedBy: task.proposedBy }),
    ...(task.proposal !== undefined && { proposal: task.proposal }),
    ...(task.noChanges !== undefined && { noChanges: task.noChanges }),
    // Only what was read of the current commit: a follow-up's new commit is read again.
    ...(task.attention !== undefined && task.attention.commit === task.commit && task.attention.files.length > 0 && { attention: task.attention.files }),
    ...(task.changes !== undefined && { changes: task.changes }),
    ...(task.check !== undefined && { check: task.check }),
    ...(attemptsBrief !== undefined && { attemptsBrief }),
    // The judge's own task names the task it judges; an attempt's names its task and number.
    ...(task.attemptOf !== undefined && (task.attemptOf.n === JUDGE_N ? { judgeOf: task.attemptOf.task } : { attemptOf: task.attemptOf })),
  };
}

/** A task's attempts in brief, from their own tasks (`attemptOf(n)`, undefined when not stored) and the task's plan. */
export function attemptsBriefOf(task: TaskRecord, attemptOf: (n: number) => TaskRecord | undefined): AttemptBrief[] | undefined {
  const plan = task.attempts;
  if (!plan) return undefined;
  return plan.agents.map((agent, index) => {
    const n = index + 1;
    const attempt = attemptOf(n);
    const stats = plan.stats[n];
    return {
      n, agent: attempt?.agent ?? agent, status: attempt?.status ?? 'cancelled',
      ...(stats && { additions: stats.additions, deletions: stats.deletions }),
      ...(attempt?.check && { check: attempt.check.status }),
      ...(plan.chosen === n && { chosen: true as const }),
    };
  });
}

export interface DetailFacts {
  stateOf: DependencyStateOf;
  openQuestions: readonly OpenQuestion[];
  turns: readonly TurnRecord[];
  /** Why a ready task still waits (an agent's rate limit), if it does. */
  heldBy?: string;
  unsandboxed?: boolean;
  /** A task with attempts: each one as it stands (./task-attempts.ts), and in brief. */
  attempts?: AttemptView[];
  attemptsBrief?: AttemptBrief[];
}

export function toDetail(task: TaskRecord, facts: DetailFacts): TaskDetail {
  const unmet = unmetDependencies(task.dependencies, facts.stateOf, task.after);
  const blockedBy = task.status === 'queued' ? (blockedReason(unmet) ?? (unmet.length === 0 ? facts.heldBy : undefined)) : undefined;
  return {
    ...toSummary(task, facts.openQuestions, facts.unsandboxed, undefined, undefined, facts.attemptsBrief),
    prompt: task.prompt,
    unmetDependencies: unmet,
    ...(blockedBy !== undefined && { blockedBy }),
    ...(task.branch !== undefined && { branch: task.branch }),
    baseBranch: task.baseBranch,
    ...(task.baseCommit !== undefined && { baseCommit: task.baseCommit }),
    ...(task.worktreePath !== undefined && { worktreePath: task.worktreePath }),
    ...(task.errorMessage !== undefined && { errorMessage: task.errorMessage }),
    attempt: task.attempt,
    ...(task.agentPid !== undefined && { agentPid: task.agentPid }),
    turns: facts.turns.map(({ turn, prompt, status, commit, requestedAt, startedAt, finishedAt }) => ({
      turn, prompt, status, requestedAt,
      ...(commit !== undefined && { commit }), ...(startedAt !== undefined && { startedAt }), ...(finishedAt !== undefined && { finishedAt }),
    })),
    ...(facts.attempts !== undefined && { attempts: facts.attempts }),
    ...(task.attempts?.choose !== undefined && { choose: task.attempts.choose }),
    ...(task.attempts?.judge !== undefined && { judge: task.attempts.judge }),
    ...(task.attempts?.recommendation !== undefined && { recommendation: task.attempts.recommendation }),
    ...(task.attempts?.judgeNote !== undefined && { judgeNote: task.attempts.judgeNote }),
  };
}
