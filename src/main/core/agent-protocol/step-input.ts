// What a `POST …/steps` means for a desk task: report the current step, answer the question the agent waits on,
// send a follow-up turn, or queue one behind the agent's work. Pure: the service loads the facts, this decides.
import type { ApStepRequest } from '../../../shared/agent-protocol';
import type { OpenQuestion } from '../../../shared/questions';
import type { AnswerInput, TaskStatus } from '../../../shared/task';
import { ACTIVE_STATUSES } from '../../../shared/task-status-labels';
import { noOpenQuestion } from '../tasks/task-errors';
import { invalidStepInput } from './ap-errors';

export type StepAction =
  /** Nothing new to say (or the first step, which the desk started with the task): show the latest step. */
  | { kind: 'report' }
  | { kind: 'answer'; answer: AnswerInput }
  | { kind: 'follow-up'; prompt: string }
  /** The agent still works (or steps wait already): this one runs after them. */
  | { kind: 'queue'; prompt: string };

export interface StepSituation {
  taskId: string;
  status: TaskStatus;
  /** The task's own prompt, which is also its first step's input. */
  taskInput: string;
  turns: number;
  /** Steps sent earlier that wait for the agent. */
  queued: number;
  openQuestions: readonly OpenQuestion[];
}

const YES = new Set(['y', 'yes']);
const NO = new Set(['n', 'no']);

/**
 * The rule, in order:
 * 1. While the agent waits on a question, the step answers it: `input` names a permission's option (its id or
 *    name, or `y`/`n` for the first allow/reject option) or fills a one-field form; `additional_input.answer`
 *    fills any form, `additional_input.declined: true` declines it; `additional_input.question_id` picks the
 *    question when several are open. A step without any of these reports the waiting step.
 * 2. Otherwise a step without input reports the latest step (the desk runs turns by itself).
 * 3. While the agent works, repeating the task's input before any follow-up reports the first step (AP clients
 *    often send it to start the task, which the desk already did); any other input is queued and becomes a
 *    follow-up turn once the agent's turns before it have completed.
 * 4. Once the run is over (and nothing is queued), the input is a follow-up turn at once.
 */
export function decideStep(situation: StepSituation, body: ApStepRequest): StepAction {
  const input = body.input !== undefined && body.input !== null && body.input.trim() !== '' ? body.input : undefined;
  const extra = body.additional_input ?? {};
  const carriesAnswer = extra.answer !== undefined || extra.declined !== undefined || extra.question_id !== undefined;

  if (situation.openQuestions.length > 0) {
    if (input === undefined && !carriesAnswer) return { kind: 'report' };
    const question = pickQuestion(situation.openQuestions, extra.question_id);
    return { kind: 'answer', answer: { questionId: question.id, ...answerFor(question, input, extra) } };
  }
  if (carriesAnswer) throw noOpenQuestion(`Task ${situation.taskId} is not waiting for an answer.`);
  if (input === undefined) return { kind: 'report' };
  const working = ACTIVE_STATUSES.includes(situation.status);
  if (working && situation.turns === 1 && situation.queued === 0 && input.trim() === situation.taskInput.trim()) return { kind: 'report' };
  return working || situation.queued > 0 ? { kind: 'queue', prompt: input } : { kind: 'follow-up', prompt: input };
}

function pickQuestion(open: readonly OpenQuestion[], questionId: string | undefined): OpenQuestion {
  if (questionId !== undefined) {
    const named = open.find((q) => q.id === questionId);
    if (!named) throw invalidStepInput(`additional_input.question_id: no open question ${questionId}; open: ${open.map((q) => q.id).join(', ')}`);
    return named;
  }
  if (open.length > 1) throw invalidStepInput(`Several questions are open: name one with additional_input.question_id (${open.map((q) => q.id).join(', ')}).`);
  return open[0] as OpenQuestion;
}

type Answer = { optionId: string } | { content: Record<string, unknown> } | { declined: true };

function answerFor(question: OpenQuestion, input: string | undefined, extra: NonNullable<ApStepRequest['additional_input']>): Answer {
  if (question.kind === 'permission') {
    const option = input === undefined ? undefined : optionFor(question, input.trim());
    if (!option) throw invalidStepInput(`This question is answered with one of its options: ${howToAnswer(question)}`);
    return { optionId: option };
  }
  if (extra.declined === true) return { declined: true };
  if (extra.answer !== undefined) return { content: extra.answer };
  const field = onlyField(question.requestedSchema);
  if (input === undefined || field === undefined) throw invalidStepInput(`This question is a form: ${howToAnswer(question)}`);
  return { content: { [field]: input } };
}

function optionFor(question: OpenQuestion, text: string): string | undefined {
  const options = question.options ?? [];
  const lower = text.toLowerCase();
  const found = options.find((o) => o.optionId === text) ?? options.find((o) => o.name.toLowerCase() === lower)
    ?? (YES.has(lower) ? options.find((o) => o.kind.startsWith('allow')) : undefined)
    ?? (NO.has(lower) ? options.find((o) => o.kind.startsWith('reject')) : undefined);
  return found?.optionId;
}

/** The form's one property, when it has exactly one (then plain text fills it). */
function onlyField(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const properties = (schema as { properties?: unknown }).properties;
  if (typeof properties !== 'object' || properties === null) return undefined;
  const keys = Object.keys(properties);
  return keys.length === 1 ? keys[0] : undefined;
}

/** A sentence for `additional_output.answer_with`: how a client answers this question with a step. */
export function howToAnswer(question: OpenQuestion): string {
  if (question.kind === 'permission') {
    const options = (question.options ?? []).map((o) => `"${o.optionId}" (${o.name})`).join(', ');
    return `send {"input": <option>} with one of ${options}; "y" or "n" picks the first allow or reject option.`;
  }
  const field = onlyField(question.requestedSchema);
  return `${field !== undefined ? `send {"input": <text>} to fill "${field}", or ` : 'send '}{"additional_input": {"answer": {...}}} with the form's fields; {"additional_input": {"declined": true}} declines.`;
}
