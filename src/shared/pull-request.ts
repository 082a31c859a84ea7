// A task's pull request (GitHub) or merge request (GitLab): what a client asks to open, and what the desk keeps and
// shows of it: its address, number, state and the forge's checks.
import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import { AddressingTurn, PullRequestFeedback } from './pull-request-feedback';

/** `POST /api/tasks/<id>/pull-request`: everything optional; the title and body default to the task's. */
export const OpenPullRequest = lazySchema(() => z.strictObject({
  title: z.string().trim().min(1).max(256).optional(),
  body: z.string().max(60_000).optional(),
  draft: z.boolean().optional(),
  /** The branch to merge into; default: the task's base branch. */
  base: z.string().min(1).max(250).optional(),
}));
export type OpenPullRequest = z.infer<typeof OpenPullRequest>;

export const ForgeKind = lazySchema(() => z.enum(['github', 'gitlab']));
export type ForgeKind = z.infer<typeof ForgeKind>;

export const PullRequestState = lazySchema(() => z.enum(['open', 'closed', 'merged']));
export type PullRequestState = z.infer<typeof PullRequestState>;

/** The forge's checks on the request's head commit, summed up: GitHub's check runs, GitLab's head pipeline. */
export const PullRequestChecks = lazySchema(() => z.object({
  state: z.enum(['pending', 'success', 'failure', 'none']),
  /** GitHub: how many check runs, and how many passed or failed; GitLab: one pipeline. */
  total: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
}));
export type PullRequestChecks = z.infer<typeof PullRequestChecks>;

export const PullRequest = lazySchema(() => z.object({
  forge: ForgeKind,
  url: z.string(),
  /** GitHub's pull request number, GitLab's merge request iid. */
  number: z.number().int().positive(),
  state: PullRequestState,
  draft: z.boolean(),
  head: z.string(),
  base: z.string(),
  checks: PullRequestChecks.optional(),
  /** The commit at the head of the request, as the forge has it. */
  headCommit: z.string().optional(),
  /** When the desk last read it from the forge. */
  checkedAt: z.string(),
  /** Review comments, general comments and failed checks, read with the request while it is open. */
  feedback: PullRequestFeedback.optional(),
  /** Why the feedback could not be read last time (the forge's words); the feedback shown is the last read. */
  feedbackError: z.string().optional(),
  /** Present while a turn addressing feedback is queued or running. */
  addressing: AddressingTurn.optional(),
  /** How many turns `forge.autoAddress` started for this request (at most `forge.maxAutoTurns`). */
  autoTurns: z.number().int().nonnegative().optional(),
  /** Feedback (comment ids, `check:<name>@<commit>`) an automatic turn already took on, so it is not taken on again. */
  autoTried: z.array(z.string()).optional(),
}));
export type PullRequest = z.infer<typeof PullRequest>;
