// The review contract: what a task changed (per-file diffs) and the answers to approve, reject or re-run it.
import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import { SandboxStatus } from './sandbox';
import { DependencyGate } from './task';
import { DiskNotice } from './disk';

export const FileChangeStatus = lazySchema(() => z.enum(['added', 'modified', 'deleted', 'renamed', 'copied', 'type-changed']));

/**
 * Present on a changed file that can run code or steer agents on the person's machine once merged (a CI workflow, a
 * hook, package scripts, an editor task, `.envrc`, an agent's config or instructions): one sentence saying why.
 * The list is in src/main/core/git/attention-files.ts (docs/security.md); the policy's `attentionGlobs` add to it.
 */
export const FileAttention = lazySchema(() => z.object({ reason: z.string() }));
export type FileAttention = z.infer<typeof FileAttention>;

/** One file the task's branch changed against the commit its worktree started from. */
export const FileDiff = lazySchema(() => z.object({
  path: z.string(),
  oldPath: z.string().optional(),
  status: FileChangeStatus,
  additions: z.number().int(),
  deletions: z.number().int(),
  binary: z.boolean(),
  /** Whole texts for the viewer to diff (unified or side by side); absent for binary or very large files. */
  oldText: z.string().optional(),
  newText: z.string().optional(),
  /** True when a text was left out because the file is too large to show. */
  tooLarge: z.boolean(),
  /** Why this change needs a look before it is approved (absent for other files). */
  attention: FileAttention.optional(),
}));
export type FileDiff = z.infer<typeof FileDiff>;

/** `GET /api/tasks/<id>/diff` answer. */
export const TaskDiff = lazySchema(() => z.object({
  base: z.string(),
  head: z.string(),
  files: z.array(FileDiff),
  /**
   * Present when the diff is of the worktree as it is now (the agent works or waits for an answer): `head` is then the
   * tree of its files, committed or not, and the diff changes as the agent goes on.
   */
  live: z.literal(true).optional(),
}));
export type TaskDiff = z.infer<typeof TaskDiff>;

/**
 * `POST /tasks/<id>/approve` body (optional). `confirmAttention: true` says the person saw the files that need
 * attention (`attention` in the diff); without it such a task is refused with `409 attention_unconfirmed`.
 */
export const ApproveTask = lazySchema(() => z.object({ confirmAttention: z.boolean().optional() }).strict());
export type ApproveTask = z.infer<typeof ApproveTask>;

/** `PUT /tasks/<id>/dependencies` body (the whole set), and `POST` body (one more). */
export const SetDependencies = lazySchema(() => z.object({ dependencies: z.array(z.string().min(1).max(200)).max(100) }));
export const AddDependency = lazySchema(() => z.object({ id: z.string().min(1).max(200) }));

/**
 * `pushAfterApprove`: after a task is approved, push the base branch (`base`) or the task's branch (`task`) to this
 * configured remote. Never forced; the outcome is shown on the task (`push`).
 */
export const PushAfterApprove = lazySchema(() => z.object({
  remote: z.string().min(1).max(100).regex(/^[A-Za-z0-9_][A-Za-z0-9._/-]*$/, 'must be the name of a configured remote, e.g. origin'),
  branch: z.enum(['base', 'task']),
}).strict());
export type PushAfterApprove = z.infer<typeof PushAfterApprove>;

/** `GET /api/settings`: what the board's settings show; `PUT` takes the editable part. */
export const DeskSettings = lazySchema(() => z.object({
  serverName: z.string(),
  repository: z.string(),
  baseBranch: z.string(),
  defaultAgent: z.string(),
  concurrency: z.number().int().min(1).max(64),
  /** When dependencies count as done for tasks that do not say (`after` in the submission). */
  dependenciesAfter: DependencyGate,
  /** What to push after an approval, or null (nothing; the default). */
  pushAfterApprove: PushAfterApprove.nullable(),
  dataDir: z.string(),
  /** Whether agents run in the OS sandbox on this machine, and how to fix it when not. */
  sandbox: SandboxStatus,
  /** How long a turn may go without a word from the agent before its task shows "no word from the agent" and its activity a stall notice (default 20). */
  quietAfterSeconds: z.number().int().min(1).max(86_400),
  /** Present while the data dir's file system is full: new work fails until space is freed, then resumes by itself. */
  diskFull: DiskNotice.optional(),
}));
export type DeskSettings = z.infer<typeof DeskSettings>;
export const UpdateSettings = lazySchema(() => z.object({
  defaultAgent: z.string().min(1).optional(),
  concurrency: z.number().int().min(1).max(64).optional(),
  dependenciesAfter: DependencyGate.optional(),
  pushAfterApprove: PushAfterApprove.nullable().optional(),
  quietAfterSeconds: z.number().int().min(1).max(86_400).optional(),
}).strict());
export type UpdateSettings = z.infer<typeof UpdateSettings>;
