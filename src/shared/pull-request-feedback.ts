// What reviewers and CI said on a task's pull/merge request (review comments, general comments, failed checks), and
// what a person asks the agent to address of it. Read from the forge by the desk; kept on the task's `pullRequest`.
import { z } from 'zod';
import { lazySchema } from './lazy-schema';

/** One comment on the request: on a line or file of the diff (with its thread), a review's summary, or a general one. */
export const FeedbackComment = lazySchema(() => z.object({
  /** The desk's id of the comment: `review-comment-<n>`, `review-<n>`, `comment-<n>` (GitHub), `note-<n>` (GitLab). */
  id: z.string(),
  author: z.string(),
  /** The file it is on, for a comment on the diff. */
  path: z.string().optional(),
  /** The line it is on (in the request's new version of the file), for a comment on a line. */
  line: z.number().int().positive().optional(),
  /** The line of the old version it is on, for a comment on a removed line. */
  oldLine: z.number().int().positive().optional(),
  body: z.string(),
  url: z.string(),
  createdAt: z.string(),
  /** GitLab: whether its thread is resolved (GitHub's REST API does not say). */
  resolved: z.boolean().optional(),
  /** The thread it belongs to (GitHub: the first comment's id; GitLab: the discussion's id); replies go there. */
  thread: z.string().optional(),
  /** The commit that addressed it, once a turn the desk pushed did. */
  addressedIn: z.string().optional(),
}));
export type FeedbackComment = z.infer<typeof FeedbackComment>;

/** A check that failed on the request's head commit: a GitHub check run, a GitLab pipeline job. */
export const FailedCheck = lazySchema(() => z.object({
  name: z.string(),
  /** The check's own words: GitHub's output title and summary; GitLab's stage and failure reason. */
  summary: z.string().optional(),
  url: z.string(),
  /** The commit it failed on. */
  head: z.string().optional(),
  /** The commit pushed to address it, once a turn did. */
  addressedIn: z.string().optional(),
}));
export type FailedCheck = z.infer<typeof FailedCheck>;

export const PullRequestFeedback = lazySchema(() => z.object({
  comments: z.array(FeedbackComment),
  failedChecks: z.array(FailedCheck),
  /** How many comments (not resolved) and failed checks no pushed turn has addressed yet. */
  unaddressed: z.number().int().nonnegative(),
}));
export type PullRequestFeedback = z.infer<typeof PullRequestFeedback>;

/** A follow-up turn addressing feedback, from when it is queued until its end is handled (pushed or not). */
export const AddressingTurn = lazySchema(() => z.object({
  commentIds: z.array(z.string()),
  /** The names of the failed checks it addresses. */
  checks: z.array(z.string()),
  /** The task's commit when the turn was asked for: a turn that ends on another one changed something. */
  fromCommit: z.string().optional(),
  /** Started by `forge.autoAddress`, not by a person. */
  auto: z.boolean(),
  requestedAt: z.string(),
}));
export type AddressingTurn = z.infer<typeof AddressingTurn>;

/** `POST /api/tasks/<id>/pull-request/address`: what to address; by default every unaddressed comment and failed check. */
export const AddressFeedback = lazySchema(() => z.strictObject({
  /** The comments to address (ids from `pullRequest.feedback.comments`); default: every unaddressed, unresolved one. */
  commentIds: z.array(z.string().min(1).max(100)).max(200).optional(),
  /** Whether to include the failed checks; default: true. */
  includeChecks: z.boolean().optional(),
  /** The person's own words to the agent, after the feedback. */
  note: z.string().max(20_000).optional(),
}));
export type AddressFeedback = z.infer<typeof AddressFeedback>;

/** `.desk/config.json` `forge.autoAddress`: which new feedback starts a turn by itself. */
export const AutoAddress = lazySchema(() => z.enum(['off', 'checks', 'comments', 'all']));
export type AutoAddress = z.infer<typeof AutoAddress>;
