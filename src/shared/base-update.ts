// The contract of keeping a task's branch up to date with its base branch: how far apart they are, an update
// (merge or rebase) that may stop on conflicts, and the ways out of a conflict (the agent, the person's editor, undo).
import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import { TaskConflict, TaskSummary } from './task';

/** How the base branch's new commits come into the task's branch: a merge commit, or the task's commits replayed on top. */
export const UpdateStrategy = lazySchema(() => z.enum(['merge', 'rebase']));
export type UpdateStrategy = z.infer<typeof UpdateStrategy>;

/** `POST /tasks/<id>/update` body (default: merge). */
export const UpdateFromBase = lazySchema(() => z.object({ strategy: UpdateStrategy.default('merge') }).strict());
export type UpdateFromBase = z.infer<typeof UpdateFromBase>;

/** `GET /tasks/<id>/base`: commits on the base the task's branch lacks (`behind`) and its own (`ahead`). */
export const BaseStatus = lazySchema(() => z.object({
  baseBranch: z.string(),
  behind: z.number().int(),
  ahead: z.number().int(),
  conflict: TaskConflict.optional(),
}));
export type BaseStatus = z.infer<typeof BaseStatus>;

/**
 * `POST /tasks/<id>/update` answer. `updated`: the base is in; `up-to-date`: nothing to do; `conflicted`: a merge
 * stopped on conflicts in `files` and waits in the worktree (see the task's `conflict`); `undone`: a rebase stopped on
 * conflicts in `files` and was undone, the branch is as it was (update with a merge to resolve them).
 */
export const BaseUpdateResult = lazySchema(() => BaseStatus.extend({
  outcome: z.enum(['updated', 'up-to-date', 'conflicted', 'undone']),
  strategy: UpdateStrategy,
  files: z.array(z.string()),
  message: z.string(),
  task: TaskSummary,
}));
export type BaseUpdateResult = z.infer<typeof BaseUpdateResult>;

/**
 * `POST /tasks/<id>/resolve` body: `agent` queues a follow-up turn that tells the agent which files hold markers (with
 * the person's `note`), committed when the agent is done; `person` commits the files as the person left them (refused
 * while markers remain); `undo` aborts the merge, back to the branch as it was before the update.
 */
export const ResolveConflict = lazySchema(() => z.discriminatedUnion('by', [
  z.object({ by: z.literal('agent'), note: z.string().max(20_000).optional() }).strict(),
  z.object({ by: z.literal('person') }).strict(),
  z.object({ by: z.literal('undo') }).strict(),
]));
export type ResolveConflict = z.infer<typeof ResolveConflict>;
