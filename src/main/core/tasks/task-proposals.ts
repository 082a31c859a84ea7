// Tasks that one task's agent proposes for others to do: queued but held (`proposal: pending`) until a person or
// the policy accepts them, then scheduled like any task; a dismissed proposal is cancelled and never runs. A proposal
// with attempts holds them with it: they are accepted or dismissed together.
import { attemptTaskId, type ProposalState, type SubmitTask } from '../../../shared/task';
import type { TaskPatch, TaskRecord } from '../store/tasks-repo';
import type { PermissionGate } from './agent-requests';
import { noPendingProposal, taskExists } from './task-errors';

/** What a submission carries when an agent proposed it. */
export interface ProposalFields { proposedBy: string; proposal: ProposalState; proposalRequest?: string }

export interface TaskProposals {
  /**
   * Queues the task `by` proposed: held until accepted, unless `accepted` already (the policy allowed it).
   * Refuses an id that is taken (`task_exists`): a proposal never replaces a task.
   */
  propose(input: SubmitTask, proposal: { by: string; accepted: boolean; requestId?: string }): Promise<TaskRecord>;
  /** A person lets a pending proposal run; its audit request is completed as allowed. */
  accept(id: string, answeredBy?: string): Promise<TaskRecord>;
  /** A person turns a pending proposal down: it is cancelled and its audit request completed as rejected. */
  dismiss(id: string, answeredBy?: string): Promise<TaskRecord>;
}

export interface TaskProposalsDeps {
  find(id: string): TaskRecord | undefined;
  mustGet(id: string): TaskRecord;
  submit(input: SubmitTask, proposal: ProposalFields): Promise<TaskRecord>;
  save(id: string, patch: TaskPatch): TaskRecord;
  log(task: TaskRecord, text: string): void;
  withTaskLock<T>(id: string, work: () => Promise<T>): Promise<T>;
  schedule(): void;
  gate: Pick<PermissionGate, 'complete'>;
  now(): string;
}

export function createTaskProposals(deps: TaskProposalsDeps): TaskProposals {
  /** The attempts' own tasks of a proposed task with attempts, as stored. */
  const attemptsOf = (task: TaskRecord) => (task.attempts?.agents ?? []).flatMap((_, index) => deps.find(attemptTaskId(task.id, index + 1)) ?? []);

  function pending(id: string): TaskRecord {
    const task = deps.mustGet(id);
    if (task.proposal !== 'pending') {
      throw noPendingProposal(task.proposal === undefined
        ? `Task ${id} was not proposed by an agent; there is nothing to accept or dismiss.`
        : `Task ${id}'s proposal was ${task.proposal} already.`);
    }
    return task;
  }

  return {
    async propose(input, { by, accepted, requestId }) {
      if (deps.find(input.id)) throw taskExists(input.id);
      const task = await deps.submit(input, {
        proposedBy: by, proposal: accepted ? 'accepted' : 'pending', ...(requestId !== undefined && { proposalRequest: requestId }),
      });
      deps.log(task, accepted ? `Proposed by task ${by}; the policy accepted it.` : `Proposed by task ${by}; it runs once a person accepts it.`);
      return task;
    },

    accept(id, answeredBy = 'person') {
      return deps.withTaskLock(id, async () => {
        const task = pending(id);
        for (const attempt of attemptsOf(task)) deps.save(attempt.id, { proposal: 'accepted' });
        const accepted = deps.save(id, { proposal: 'accepted' });
        if (task.proposalRequest) deps.gate.complete(task.proposalRequest, { outcome: 'allowed', answeredBy });
        deps.log(accepted, 'Proposal accepted; the task is queued.');
        deps.schedule();
        return accepted;
      });
    },

    dismiss(id, answeredBy = 'person') {
      return deps.withTaskLock(id, async () => {
        const task = pending(id);
        for (const attempt of attemptsOf(task)) deps.save(attempt.id, { proposal: 'dismissed', status: 'cancelled', finishedAt: deps.now() });
        const dismissed = deps.save(id, { proposal: 'dismissed', status: 'cancelled', finishedAt: deps.now() });
        if (task.proposalRequest) deps.gate.complete(task.proposalRequest, { outcome: 'rejected', answeredBy });
        deps.log(dismissed, 'Proposal dismissed; the task will not run.');
        return dismissed;
      });
    },
  };
}
