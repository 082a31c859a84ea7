// The task contract shared by the core, its HTTP clients and the renderer: statuses, submissions and task views.
import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import { AgentImplementation } from './agents';
import { OpenQuestion } from './questions';
import { PullRequest } from './pull-request';
import { RunnerKind } from './runners';
import { TASK_STATUSES } from './task-status-labels';

/** Where a task is in its life; the AA wire format uses these values as they are. */
export const TaskStatus = lazySchema(() => z.enum(TASK_STATUSES));
export type TaskStatus = z.infer<typeof TaskStatus>;

export { ACTIVE_STATUSES, FINISHED_STATUSES } from './task-status-labels';

/** Review of a completed task; approval merges its branch into the base branch. */
export const ReviewState = lazySchema(() => z.enum(['pending', 'approved', 'rejected']));
export type ReviewState = z.infer<typeof ReviewState>;

export const TaskId = lazySchema(() => z
  .string()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .refine((id) => id.trim() === id, 'must not start or end with white space')
  .refine((id) => !/[\u0000-\u001f\u007f]/.test(id), 'must not contain control characters'));

/**
 * When a dependency counts as done for the tasks that wait for it: once `completed` (committed), or only once a
 * person (or the sending application) `approved` it.
 */
export const DependencyGate = lazySchema(() => z.enum(['completed', 'approved']));
export type DependencyGate = z.infer<typeof DependencyGate>;

/** How many attempts one task may run side by side. */
export const MIN_ATTEMPTS = 2;
export const MAX_ATTEMPTS = 8;

/** One attempt of a task: its agent (default: the task's). */
export const AttemptEntry = lazySchema(() => z.strictObject({ agent: z.string().min(1).max(100).optional() }));
export type AttemptEntry = z.infer<typeof AttemptEntry>;

/**
 * How the attempt kept is chosen: by a person (left out: the desk asks which to keep once all have ended), `first`
 * (the first to complete), `check` (the first to complete and pass the repository's check), `judge` (the attempt the
 * `judge` agent recommends once all have ended; a judge that names none leaves the choice to a person).
 */
export const ChooseAttempt = lazySchema(() => z.enum(['first', 'check', 'judge']));
export type ChooseAttempt = z.infer<typeof ChooseAttempt>;

/** The id of attempt `n` of task `taskId`: a task of its own, left out of every list (`GET /tasks/<it>` reads it). */
export function attemptTaskId(taskId: string, n: number): string {
  return `${taskId}~attempt-${n}`;
}

/** The id of the judge's turn of task `taskId`: a task of its own, never listed, whose worktree is discarded. */
export function judgeTaskId(taskId: string): string {
  return `${taskId}~judge`;
}

/** Ids of these forms are the desk's own (attemptTaskId, judgeTaskId): a client may not submit one. */
export const ATTEMPT_ID_PATTERN = /~(attempt-\d+|judge)$/;

/** What the judge recommends: the attempt (`n`), why (in its words), and which agent judged. */
export const AttemptRecommendation = lazySchema(() => z.object({
  n: z.number().int().positive(),
  reason: z.string(),
  by: z.string(),
}));
export type AttemptRecommendation = z.infer<typeof AttemptRecommendation>;

/** `POST /` body of the Agent Assignment protocol (plus the optional `agent` and `after` extensions). */
export const SubmitTask = lazySchema(() => z.object({
  id: TaskId,
  prompt: z.string().refine((p) => p.trim().length > 0, 'must not be empty'),
  dependencies: z.array(TaskId).max(100, 'must list at most 100 tasks').default([]),
  agent: z.string().min(1).max(100).optional(),
  /** Default: the desk's setting (`completed` unless changed). */
  after: DependencyGate.optional(),
  /** The repository the task runs in (its name, as `GET /api/repos` lists it); default: the desk's first. `/r/<name>/` sets it. */
  repo: z.string().min(1).max(64).optional(),
  /** Where the agent runs (see docs/runners.md); default: the desk's default runner. */
  runner: RunnerKind.optional(),
  /** Several attempts at the task, side by side, each its own run on its own branch; one is kept (see `choose`). */
  attempts: z.array(AttemptEntry)
    .min(MIN_ATTEMPTS, `must list at least ${MIN_ATTEMPTS} attempts`).max(MAX_ATTEMPTS, `must list at most ${MAX_ATTEMPTS} attempts`).optional(),
  choose: ChooseAttempt.optional(),
  /** An agent that compares the attempts once all have ended and recommends one (applied with `choose: "judge"`). */
  judge: z.string().min(1).max(100).optional(),
}).refine((task) => task.choose === undefined || task.attempts !== undefined, { path: ['choose'], message: 'is only for a task with attempts' })
  .refine((task) => task.judge === undefined || task.attempts !== undefined, { path: ['judge'], message: 'is only for a task with attempts' })
  .refine((task) => task.choose !== 'judge' || task.judge !== undefined || task.attempts === undefined, { path: ['choose'], message: '"judge" needs a judge: name its agent in `judge`' })
  .refine((task) => !ATTEMPT_ID_PATTERN.test(task.id), { path: ['id'], message: 'must not end in ~attempt-<n> or ~judge (the desk names attempts and judges so)' }));
export type SubmitTask = z.infer<typeof SubmitTask>;

/** `POST /tasks/<id>/prompt` body: another turn for the task's agent. */
export const FollowUp = lazySchema(() => z.object({ prompt: z.string().refine((p) => p.trim().length > 0, 'must not be empty') }));
export type FollowUp = z.infer<typeof FollowUp>;

/** `POST /tasks/<id>/input` body: the answer to an open question (`questionId` may be left out when one is open). */
export const AnswerInput = lazySchema(() => z.union([
  z.object({ questionId: z.string().optional(), optionId: z.string().min(1) }).strict(),
  z.object({ questionId: z.string().optional(), content: z.record(z.string(), z.unknown()) }).strict(),
  z.object({ questionId: z.string().optional(), declined: z.literal(true) }).strict(),
]));
export type AnswerInput = z.infer<typeof AnswerInput>;

/** `POST /tasks/<id>/mode` and `/config` bodies: change the live session's mode or a configuration option. */
export const SetMode = lazySchema(() => z.object({ modeId: z.string().min(1) }));
export const SetConfigOption = lazySchema(() => z.object({ configId: z.string().min(1), value: z.union([z.string(), z.boolean()]) }));

/** `DELETE /` body: the id of the task to cancel. */
export const CancelTask = lazySchema(() => z.object({ id: TaskId }));
export type CancelTask = z.infer<typeof CancelTask>;

/** Why a dependency keeps its dependent waiting. */
export const UnmetDependency = lazySchema(() => z.object({
  id: z.string(),
  /** `unknown` when no task with that id was submitted yet. */
  status: z.union([TaskStatus, z.literal('unknown')]),
  /** True when the dependency ended in error, was cancelled or (for `after: approved`) rejected: it will not finish without a person. */
  blocking: z.boolean(),
  /** For a task that waits for approval: the completed dependency's review. */
  review: ReviewState.optional(),
}));
export type UnmetDependency = z.infer<typeof UnmetDependency>;

/**
 * An update from the base branch that stopped on conflicts: the merge is in progress in the task's worktree and
 * these files hold conflict markers. Approval is refused until it is resolved (by the agent, in an editor) or undone.
 */
export const TaskConflict = lazySchema(() => z.object({
  baseBranch: z.string(),
  /** The base branch's commit being merged in; the task's diff starts from it once the merge is committed. */
  baseCommit: z.string(),
  files: z.array(z.string()),
}));
export type TaskConflict = z.infer<typeof TaskConflict>;

/** The push after this task's approval (see the `pushAfterApprove` setting): what went where, and how it ended. */
export const PushOutcome = lazySchema(() => z.object({
  remote: z.string(),
  /** The branch pushed, e.g. `main` or the task's branch. */
  branch: z.string(),
  ok: z.boolean(),
  /** What happened, in words; for a refusal, git's reason (e.g. `rejected: fetch first (the remote has commits this branch lacks)`). */
  message: z.string(),
  at: z.string(),
}));
export type PushOutcome = z.infer<typeof PushOutcome>;

/** What the agent did last, as a card shows it: a tool call's title, the tail of its message or thought, its plan. */
export const TaskActivity = lazySchema(() => z.object({ kind: z.enum(['tool', 'message', 'thought', 'plan']), text: z.string() }));
export type TaskActivity = z.infer<typeof TaskActivity>;

/** A tool call or command of the agent's turn that ended in failure, as the activity showed it. */
export const FailedStep = lazySchema(() => z.object({
  /** The tool call's title or the command line. */
  title: z.string(),
  /** How it failed: the exit code, or the first line of what the tool answered. */
  detail: z.string().optional(),
}));
export type FailedStep = z.infer<typeof FailedStep>;

/**
 * The agent's latest turn ended well but changed no file, so nothing was committed (an empty commit would read as work
 * done). The AA status stays `completed`; `failed` lists what went wrong on the way, often the reason.
 */
export const NoChanges = lazySchema(() => z.object({
  /** One sentence for a card or a client: what happened and what failed. */
  summary: z.string(),
  failed: z.array(FailedStep),
}));
export type NoChanges = z.infer<typeof NoChanges>;

/**
 * A task an agent proposed (through the desk's MCP server): `pending` until a person or the policy accepts it (it
 * does not run before), then `accepted`; `dismissed` when a person turned it down (the task is cancelled).
 */
export const ProposalState = lazySchema(() => z.enum(['pending', 'accepted', 'dismissed']));
export type ProposalState = z.infer<typeof ProposalState>;

/**
 * A changed file that can run code or steer agents on the person's machine once merged, and why (docs/security.md):
 * on a task in review, in an `attention_unconfirmed` refusal (`details.files`) and in a pull request's body.
 */
export const AttentionFile = lazySchema(() => z.object({ path: z.string(), reason: z.string() }));
export type AttentionFile = z.infer<typeof AttentionFile>;

/** What a task's branch changed against the commit its worktree started from, in all: the Changes tab's totals. */
export const ChangeCount = lazySchema(() => z.object({
  files: z.number().int().nonnegative(),
  additions: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
}));
export type ChangeCount = z.infer<typeof ChangeCount>;

/**
 * The repository's check (`check` of `.desk/config.json`) run on a turn's work: `passed` (exit code 0), `failed` (another
 * exit code), `error` (it could not run to its end: it did not start, or was stopped by a signal).
 */
export const CheckResult = lazySchema(() => z.object({
  status: z.enum(['passed', 'failed', 'error']),
  /** Absent when it did not exit by itself. */
  exitCode: z.number().int().optional(),
  durationMs: z.number().int().nonnegative(),
  /** The end of what it printed (stdout and stderr together), at most a few thousand characters. */
  outputTail: z.string(),
}));
export type CheckResult = z.infer<typeof CheckResult>;

/** One attempt of a task with attempts, as `GET /tasks/<id>` shows it. */
export const AttemptView = lazySchema(() => z.object({
  n: z.number().int().positive(),
  agent: z.string(),
  status: TaskStatus,
  branch: z.string(),
  commit: z.string().optional(),
  /** What its commit changed against the base (0 until it completed). */
  filesChanged: z.number().int().nonnegative(),
  additions: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
  workingMs: z.number().int().nonnegative(),
  /** The tokens its turn took, where its agent reported them. */
  tokens: z.number().int().nonnegative().optional(),
  check: CheckResult.optional(),
  errorMessage: z.string().optional(),
  /** Present on the attempt kept. */
  chosen: z.literal(true).optional(),
}));
export type AttemptView = z.infer<typeof AttemptView>;

/** An attempt as a card shows it: its agent, status, what it changed, its check. */
export const AttemptBrief = lazySchema(() => z.object({
  n: z.number().int().positive(),
  agent: z.string(),
  status: TaskStatus,
  /** Lines its commit added and removed, once it completed. */
  additions: z.number().int().nonnegative().optional(),
  deletions: z.number().int().nonnegative().optional(),
  check: z.enum(['passed', 'failed', 'error']).optional(),
  chosen: z.literal(true).optional(),
}));
export type AttemptBrief = z.infer<typeof AttemptBrief>;

/** One task as listed by `GET /` (the AA fields, then ours). */
export const TaskSummary = lazySchema(() => z.object({
  id: z.string(),
  submittedAt: z.string(),
  status: TaskStatus,
  commit: z.string().optional(),
  title: z.string(),
  agent: z.string(),
  /**
   * Who the agent says it is (`agentInfo` of its ACP initialize answer: name, title, version) as of its last start;
   * absent until it started, and for agents that do not say. `agent` stays the desk's id for it (e.g. `ad-hoc`).
   */
  agentInfo: AgentImplementation.optional(),
  dependencies: z.array(z.string()),
  review: ReviewState,
  updatedAt: z.string(),
  /** What the agent waits for a person to answer (present while the task is awaiting-input). */
  openQuestions: z.array(OpenQuestion).optional(),
  /** A sentence saying why a queued task cannot start, when a dependency will not finish (or be approved) by itself. */
  blockedBy: z.string().optional(),
  /** Present when the task starts only after its dependencies are approved, not merely completed. */
  after: z.literal('approved').optional(),
  /** Present when the task's agent runs without the OS sandbox (none on this machine, or the policy turns it off). */
  unsandboxed: z.literal(true).optional(),
  /** Present while an update from the base branch waits for its conflicts to be resolved. */
  conflict: TaskConflict.optional(),
  /** Present once a push after approval was tried. */
  push: PushOutcome.optional(),
  /** The task's pull request (GitHub) or merge request (GitLab), once opened from the desk. */
  pullRequest: PullRequest.optional(),
  /** The repository the task runs in (by name). */
  repo: z.string().optional(),
  /** Present when a person archived the finished task: the board hides it (its Archived filter shows it); a new run brings it back. */
  archived: z.literal(true).optional(),
  /** When its latest run started and (once over) ended; a follow-up starts a new run. */
  startedAt: z.string().optional(),
  finishedAt: z.string().optional(),
  /** Milliseconds its agent spent working (in-progress), over every run and turn; not queued, waiting for a person or in review. */
  workingMs: z.number().int().nonnegative(),
  /** Present while it works: when the current stretch of work began (add now − workingSince to workingMs). */
  workingSince: z.string().optional(),
  /** What the agent did last, so a card shows it after a reload too. */
  lastActivity: TaskActivity.optional(),
  /** While the agent works: the time of its last word, present once it has said nothing for the desk's `quietAfterSeconds`. */
  quietSince: z.string().optional(),
  /** The task whose agent proposed this one, and where the proposal stands. */
  proposedBy: z.string().optional(),
  proposal: ProposalState.optional(),
  /** Where the agent runs, when that is not this machine's sandbox (`local`). */
  runner: RunnerKind.exclude(['local']).optional(),
  /** Present when the latest turn ended without changing a file ("no changes"): no commit was made for it. */
  noChanges: NoChanges.optional(),
  /**
   * The files of its commit that can run code or steer agents on the person's machine (the diff's `attention`), for
   * the card; present once the desk has read them for the current commit, and only when there are some.
   */
  attention: z.array(AttentionFile).optional(),
  /** What its branch changed (files, lines added and removed) as of its latest commit, for the card in Review. */
  changes: ChangeCount.optional(),
  /** The repository's check on the latest turn's work, once it ran (present only when the repository has a `check`). */
  check: CheckResult.optional(),
  /** A task submitted with attempts: each one in brief (GET /tasks/<id> has them in full). */
  attemptsBrief: z.array(AttemptBrief).optional(),
  /** On an attempt's own task (never listed): the task it is an attempt of, and its number. */
  attemptOf: z.object({ task: z.string(), n: z.number().int().positive() }).optional(),
  /** On a judge's own task (never listed): the task whose attempts it compares. */
  judgeOf: z.string().optional(),
}));
export type TaskSummary = z.infer<typeof TaskSummary>;

/** One prompt to the task's agent: the first, then each follow-up; each ends in its own commit. */
export const Turn = lazySchema(() => z.object({
  turn: z.number().int(),
  prompt: z.string(),
  status: z.enum(['pending', 'running', 'completed', 'error', 'cancelled']),
  commit: z.string().optional(),
  requestedAt: z.string(),
  startedAt: z.string().optional(),
  finishedAt: z.string().optional(),
}));
export type Turn = z.infer<typeof Turn>;

/** One task in full, as `GET /tasks/<id>` returns it. */
export const TaskDetail = lazySchema(() => TaskSummary.extend({
  prompt: z.string(),
  unmetDependencies: z.array(UnmetDependency),
  branch: z.string().optional(),
  baseBranch: z.string(),
  /** The base branch's commit the task's worktree started from. */
  baseCommit: z.string().optional(),
  worktreePath: z.string().optional(),
  errorMessage: z.string().optional(),
  /** How many times the task was started (re-runs after a restart count). */
  attempt: z.number().int(),
  agentPid: z.number().int().optional(),
  turns: z.array(Turn),
  /** A task submitted with `attempts`: each attempt, and how the one kept is chosen. */
  attempts: z.array(AttemptView).optional(),
  choose: ChooseAttempt.optional(),
  /** The agent that judges the attempts, when the task was submitted with one. */
  judge: z.string().optional(),
  /** The judge's recommendation, once it made one (marked as the judge's wherever it shows). */
  recommendation: AttemptRecommendation.optional(),
  /** Why the judge recommended nothing (it failed, timed out, or named no attempt that completed): a person chooses. */
  judgeNote: z.string().optional(),
}));
export type TaskDetail = z.infer<typeof TaskDetail>;

/** `GET /` answer. */
export const ServerInfo = lazySchema(() => z.object({
  serverName: z.string(),
  tasks: z.array(TaskSummary),
}));
export type ServerInfo = z.infer<typeof ServerInfo>;

/** The first line of a prompt, used as a card title and a commit subject. */
export function firstLineOf(prompt: string): string {
  const line = prompt.trim().split(/\r?\n/, 1)[0] ?? '';
  return line.trim();
}
