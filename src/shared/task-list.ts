// The board's and /api's task list: which tasks (`status`, `review`, changed `since` a cursor) and how many at a time.
import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import { ReviewState, TaskStatus, TaskSummary } from './task';

/** A query parameter given once, repeated (`?status=a&status=b`) or comma-separated (`?status=a,b`). */
function listOf<T extends z.ZodType>(item: T) {
  return z.preprocess(
    (value) => (value === undefined ? undefined : (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(',')).filter((v) => v !== '')),
    z.array(item).min(1).optional(),
  );
}

/** Where a list left off: `<epoch>.<change>`; the epoch changes when the desk restarts (then everything counts as changed). */
export const ListCursor = lazySchema(() => z.string().regex(/^[a-z0-9]+\.\d+$/, 'must be a cursor from an earlier answer'));

export const MAX_TASK_PAGE = 5000;

/** `GET /api/tasks` query. Without `limit` every matching task is sent. */
export const TaskListQuery = lazySchema(() => z.object({
  /** Only tasks in one of these statuses. */
  status: listOf(TaskStatus),
  /** Only tasks whose review is one of these. */
  review: listOf(ReviewState),
  /** `false`: only tasks on the board; `true`: only archived ones; left out: both. */
  archived: z.enum(['true', 'false']).transform((value) => value === 'true').optional(),
  /** Only tasks that changed after this cursor (the `cursor` of an earlier answer). */
  since: ListCursor.optional(),
  /** The `next` of the previous page. */
  after: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_TASK_PAGE).optional(),
  /** Submission order (`asc`, the default) or newest first (`desc`). */
  order: z.enum(['asc', 'desc']).default('asc'),
  /** Only tasks of this repository (by name). */
  repo: z.string().min(1).optional(),
}));
export type TaskListQuery = z.infer<typeof TaskListQuery>;

/** `GET /api/tasks` answer. */
export const TaskPage = lazySchema(() => z.object({
  tasks: z.array(TaskSummary),
  /** The last event seq: open the events socket with `?after=lastSeq` for everything since. */
  lastSeq: z.number().int(),
  /** Pass as `since` to get only the tasks that change after this answer. */
  cursor: ListCursor,
  /** How many tasks match the filters, on every page together. */
  total: z.number().int(),
  /** Pass as `after` for the next page; absent on the last one. */
  next: z.number().int().optional(),
}));
export type TaskPage = z.infer<typeof TaskPage>;
