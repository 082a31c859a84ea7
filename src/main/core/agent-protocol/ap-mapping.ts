// How desk tasks, turns and files look to an Agent Protocol client: ids, step states, the last step, pages. Pure.
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { ApArtifact, ApPageQuery, ApPagination, ApStep, ApStepStatus, ApTask } from '../../../shared/agent-protocol';
import type { ReviewState, TaskDetail, TaskStatus } from '../../../shared/task';
import type { TurnRecord } from '../store/turns-repo';
import { howToAnswer } from './step-input';

const STEP_MARK = '-turn-';

/** A turn's step id: stable for as long as the submission lives, and readable back without a lookup table. */
export function stepIdFor(taskId: string, turn: number): string {
  return `${taskId}${STEP_MARK}${turn}`;
}

/** The turn a step id names, or undefined when it is not one of this task's step ids. */
export function turnOfStepId(taskId: string, stepId: string): number | undefined {
  const prefix = `${taskId}${STEP_MARK}`;
  if (!stepId.startsWith(prefix)) return undefined;
  const rest = stepId.slice(prefix.length);
  return /^[1-9]\d{0,8}$/.test(rest) ? Number(rest) : undefined;
}

/**
 * A task's story ends with a person's review: once it is approved (merged) or rejected, its latest step is
 * the last one. Until then the client may always send another step.
 */
export function isLastStep(review: ReviewState, isLatestTurn: boolean): boolean {
  return isLatestTurn && (review === 'approved' || review === 'rejected');
}

export interface StepFacts {
  isLatest: boolean;
  taskStatus: TaskStatus;
  /** Open questions of the task; they belong to its latest turn. */
  openQuestions: number;
}

/** A turn's status as a step: pending is created, a turn waiting on a person is awaiting_input, any end is completed. */
export function stepStatus(turn: Pick<TurnRecord, 'status'>, facts: StepFacts): ApStepStatus {
  switch (turn.status) {
    case 'pending':
      return 'created';
    case 'running':
      if (facts.isLatest && facts.openQuestions > 0) return 'awaiting_input';
      // A turn that was running when the desk stopped waits for a slot again.
      if (facts.isLatest && facts.taskStatus === 'queued') return 'created';
      return 'running';
    default:
      return 'completed';
  }
}

export function toApStep(task: TaskDetail, turn: TurnRecord, artifacts: ApArtifact[]): ApStep {
  const latest = task.turns.at(-1)?.turn ?? turn.turn;
  const isLatest = turn.turn >= latest;
  const questions = isLatest ? task.openQuestions ?? [] : [];
  const status = stepStatus(turn, { isLatest, taskStatus: task.status, openQuestions: questions.length });
  const additional: Record<string, unknown> = { turn: turn.turn };
  if (turn.commit !== undefined) additional.commit = turn.commit;
  if (status === 'completed') additional.ended = turn.status;
  if (status === 'completed' && turn.status === 'error' && isLatest && task.errorMessage !== undefined) additional.error_message = task.errorMessage;
  const [question] = questions;
  if (status === 'awaiting_input' && question) {
    additional.question = question;
    additional.open_questions = questions;
    additional.answer_with = howToAnswer(question);
  }
  if (status === 'created' && isLatest && task.blockedBy !== undefined) additional.waiting_for = task.blockedBy;
  return {
    task_id: task.id,
    step_id: stepIdFor(task.id, turn.turn),
    name: `turn ${turn.turn}`,
    status,
    input: turn.prompt,
    output: turn.output ?? null,
    additional_output: additional,
    artifacts,
    is_last: isLastStep(task.review, isLatest),
    created_at: turn.requestedAt,
    modified_at: turn.finishedAt ?? turn.startedAt ?? turn.requestedAt,
  };
}

/** A step sent while the agent worked: it becomes turn `turn` once the turns before it have completed. */
export function toQueuedApStep(taskId: string, queued: { input: string; queuedAt: string }, turn: number): ApStep {
  return {
    task_id: taskId,
    step_id: stepIdFor(taskId, turn),
    name: `turn ${turn}`,
    status: 'created',
    input: queued.input,
    output: null,
    additional_output: { turn, queued: true, waiting_for: `step ${turn - 1} to complete` },
    artifacts: [],
    is_last: false,
    created_at: queued.queuedAt,
    modified_at: queued.queuedAt,
  };
}

/** What the client sent with the task (when it came through AP), with the agent and dependencies the desk applied. */
export function toApTask(task: TaskDetail, sentAdditionalInput: Record<string, unknown> | undefined, artifacts: ApArtifact[]): ApTask {
  return {
    task_id: task.id,
    input: task.prompt,
    additional_input: { ...sentAdditionalInput, agent: task.agent, dependencies: task.dependencies },
    created_at: task.submittedAt,
    modified_at: task.updatedAt,
    artifacts,
  };
}

export interface ArtifactFacts {
  taskId: string;
  /** POSIX path inside the worktree. */
  path: string;
  agentCreated: boolean;
  createdAt: string;
  modifiedAt: string;
}

/** The same file of the same task always has the same id, whether it is listed, changed again or downloaded. */
export function artifactIdFor(taskId: string, path: string): string {
  return createHash('sha256').update(`${taskId}\0${path}`).digest('hex').slice(0, 32);
}

export function toApArtifact(facts: ArtifactFacts): ApArtifact {
  const folder = posix.dirname(facts.path);
  return {
    artifact_id: artifactIdFor(facts.taskId, facts.path),
    agent_created: facts.agentCreated,
    file_name: posix.basename(facts.path),
    relative_path: folder === '.' ? '' : folder,
    created_at: facts.createdAt,
    modified_at: facts.modifiedAt,
  };
}

/** One page of `items`; a page past the end is empty but still says how many there are. */
export function paginate<T>(items: readonly T[], page: ApPageQuery): { items: T[]; pagination: ApPagination } {
  const start = (page.current_page - 1) * page.page_size;
  return {
    items: items.slice(start, start + page.page_size),
    pagination: {
      total_items: items.length,
      total_pages: Math.ceil(items.length / page.page_size),
      current_page: page.current_page,
      page_size: page.page_size,
    },
  };
}
