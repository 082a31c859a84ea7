// What the task service refuses, as DeskErrors; the HTTP layer maps each kind to a status.
import { DeskError } from '../../../shared/desk-error';

export const taskNotFound = (taskId: string) => new DeskError('not_found', 'task_not_found', `No task with id "${taskId}"`, { taskId });

export const dependencyCycle = (cycle: string[]) =>
  new DeskError('conflict', 'dependency_cycle', `These dependencies would close a cycle: ${cycle.join(' → ')}`, { cycle });

/** `field` names where the agent was given (`agent` in the desk's API, `additional_input.agent` in the Agent Protocol). */
export const unknownAgent = (agentId: string, known: string[], field = 'agent') =>
  new DeskError('invalid', 'unknown_agent', `${field}: No agent "${agentId}"; known agents: ${known.join(', ')}`, { field, known });

/** The task is in a state where this request makes no sense now (e.g. a follow-up while the agent works). */
export const taskBusy = (message: string) => new DeskError('conflict', 'task_busy', message);

/** The running agent refused what a person asked of it (a mode, a config option). */
export const agentRefused = (cause: unknown) =>
  new DeskError('conflict', 'agent_refused', `The agent refused: ${cause instanceof Error ? cause.message : String(cause)}`);

/** A question or governance request someone already answered: the first answer wins, a later one is refused. */
export const alreadyAnswered = (message: string, details?: Record<string, unknown>) =>
  new DeskError('conflict', 'already_answered', message, details);

/** Questions agents wait on: none open, or an answer that does not fit. */
export const noOpenQuestion = (message: string) => new DeskError('conflict', 'no_open_question', message);
export const invalidAnswer = (message: string) => new DeskError('invalid', 'invalid_answer', message);

/** An agent proposed a task under an id already taken: a proposal never replaces a task. */
export const taskExists = (taskId: string) =>
  new DeskError('conflict', 'task_exists', `A task with id "${taskId}" exists already; propose the new task under another id.`, { taskId });

/** Accept or dismiss asked of a task that is no proposal waiting for an answer. */
export const noPendingProposal = (message: string) => new DeskError('conflict', 'no_pending_proposal', message);

/** An approval of a task that changes files able to run code or steer agents, sent without `confirmAttention: true`. */
export const attentionUnconfirmed = (taskId: string, files: readonly { path: string; reason: string }[]) =>
  new DeskError('conflict', 'attention_unconfirmed',
    `Task ${taskId} changes ${files.length === 1 ? 'a file' : `${files.length} files`} that can run code or steer agents on your machine: ${files.map((f) => f.path).join(', ')}. Look at ${files.length === 1 ? 'it' : 'them'}, then approve again with {"confirmAttention": true}.`,
    { taskId, files });
