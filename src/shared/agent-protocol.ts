// The Agent Protocol v1 contract (`/ap/v1/agent/…`): request bodies, page queries and the task, step and
// artifact shapes the desk answers with. Field names are the protocol's (snake_case), not ours.
import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import { TaskId } from './task';

const nonEmptyPrompt = (what: string) => z
  .string({ error: (issue) => (issue.input === undefined || issue.input === null ? `required: the desk's agents need ${what}` : 'must be a string') })
  .refine((text) => text.trim().length > 0, `must not be empty: the desk's agents need ${what}`);

const ATTEMPTS_NOT_HERE = 'is not taken by the Agent Protocol: its steps are the turns of one agent, and several attempts have no one agent to step until one is kept. Submit the task with attempts through POST / (Agent Assignment) instead, and read or answer it there';

/** What `additional_input` of a new task may carry; other keys are kept and shown back as sent. */
export const ApTaskAdditionalInput = lazySchema(() => z.looseObject({
  dependencies: z.array(TaskId).max(100, 'must list at most 100 tasks').optional(),
  agent: z.string().min(1).max(100).optional(),
  // An Agent Protocol task is one agent's session whose steps are its turns; attempts have no one session until one is kept.
  attempts: z.never({ error: ATTEMPTS_NOT_HERE }).optional(),
  choose: z.never({ error: ATTEMPTS_NOT_HERE }).optional(),
  judge: z.never({ error: ATTEMPTS_NOT_HERE }).optional(),
}));
export type ApTaskAdditionalInput = z.infer<typeof ApTaskAdditionalInput>;

/** `POST /ap/v1/agent/tasks`: `input` becomes the task's prompt, so it must say something. */
export const ApTaskRequest = lazySchema(() => z.object({
  input: nonEmptyPrompt('a prompt'),
  additional_input: ApTaskAdditionalInput.nullish(),
}));
export type ApTaskRequest = z.infer<typeof ApTaskRequest>;

/**
 * `POST …/tasks/{task_id}/steps`. `input` is a follow-up prompt, or the answer to the question the agent waits
 * on; `additional_input` may name the question and carry a form's answer or a decline.
 */
export const ApStepRequest = lazySchema(() => z.object({
  input: z.string().nullish(),
  additional_input: z.looseObject({
    question_id: z.string().min(1).optional(),
    answer: z.record(z.string(), z.unknown()).optional(),
    declined: z.literal(true).optional(),
  }).nullish(),
}));
export type ApStepRequest = z.infer<typeof ApStepRequest>;

/** The most items one page holds; a larger `page_size` is answered with pages of this size. */
export const AP_MAX_PAGE_SIZE = 100;

const pageNumber = (fallback: number) => z
  .string()
  .optional()
  .transform((text, context) => {
    if (text === undefined) return fallback;
    const value = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < 1) {
      context.addIssue({ code: 'custom', message: 'must be a whole number of at least 1' });
      return z.NEVER;
    }
    return value;
  });

/** `current_page` (1-based, default 1) and `page_size` (default 10, at most AP_MAX_PAGE_SIZE) from a query string. */
export const ApPageQuery = lazySchema(() => z.object({
  current_page: pageNumber(1),
  page_size: pageNumber(10).transform((size) => Math.min(size, AP_MAX_PAGE_SIZE)),
}));
export type ApPageQuery = z.infer<typeof ApPageQuery>;

export const ApPagination = lazySchema(() => z.object({
  total_items: z.number().int(),
  total_pages: z.number().int(),
  current_page: z.number().int(),
  page_size: z.number().int(),
}));
export type ApPagination = z.infer<typeof ApPagination>;

/** A file of the task: changed by its commits (`agent_created`) or uploaded by a client. */
export const ApArtifact = lazySchema(() => z.object({
  artifact_id: z.string(),
  agent_created: z.boolean(),
  file_name: z.string(),
  /** The folder inside the task's worktree, `""` for the top (POSIX separators). */
  relative_path: z.string(),
  created_at: z.string(),
  modified_at: z.string(),
}));
export type ApArtifact = z.infer<typeof ApArtifact>;

export const ApTask = lazySchema(() => z.object({
  task_id: z.string(),
  input: z.string(),
  /** What the client sent, with `agent` and `dependencies` as the desk applied them. */
  additional_input: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  modified_at: z.string(),
  artifacts: z.array(ApArtifact),
}));
export type ApTask = z.infer<typeof ApTask>;

/** The protocol's three step states, plus `awaiting_input` while the agent waits on a question. */
export const ApStepStatus = lazySchema(() => z.enum(['created', 'running', 'completed', 'awaiting_input']));
export type ApStepStatus = z.infer<typeof ApStepStatus>;

/** One turn of the task's agent: the first is the task's prompt, each follow-up another. */
export const ApStep = lazySchema(() => z.object({
  task_id: z.string(),
  step_id: z.string(),
  name: z.string(),
  status: ApStepStatus,
  input: z.string(),
  /** The agent's message text of the turn; null until the turn ends. */
  output: z.string().nullable(),
  /** How the turn ended, its commit, or the question it waits on. */
  additional_output: z.record(z.string(), z.unknown()),
  artifacts: z.array(ApArtifact),
  is_last: z.boolean(),
  created_at: z.string(),
  modified_at: z.string(),
}));
export type ApStep = z.infer<typeof ApStep>;

export const ApTaskList = lazySchema(() => z.object({ tasks: z.array(ApTask), pagination: ApPagination }));
export type ApTaskList = z.infer<typeof ApTaskList>;
export const ApStepList = lazySchema(() => z.object({ steps: z.array(ApStep), pagination: ApPagination }));
export type ApStepList = z.infer<typeof ApStepList>;
export const ApArtifactList = lazySchema(() => z.object({ artifacts: z.array(ApArtifact), pagination: ApPagination }));
export type ApArtifactList = z.infer<typeof ApArtifactList>;

/** Errors on AP routes: the protocol's `{message}`, plus the desk's `error` code. */
export const ApErrorBody = lazySchema(() => z.object({ message: z.string(), error: z.string().optional() }));
export type ApErrorBody = z.infer<typeof ApErrorBody>;
