// How long a task's agent actually worked: only time in-progress counts, not time queued, waiting for a person
// (awaiting-input) or in review. Pure: given the task before a write and the write, the fields to add to it.
import type { TaskStatus } from '../../../shared/task';
import type { TaskPatch, TaskRecord } from '../store/tasks-repo';

type Clock = Pick<TaskRecord, 'status' | 'workingMs' | 'workingSince'>;

/** The only status whose time is work: the agent runs a turn and nobody waits on a person. */
export const WORKING_STATUS: TaskStatus = 'in-progress';

/**
 * The working-time fields a status change sets, at time `at` (ISO): entering in-progress opens a stretch,
 * leaving it adds the stretch to `workingMs`. `interrupted`: the open stretch began in an earlier run of the
 * desk, which stopped at some unknown time; it is dropped rather than counted with the time the desk was down.
 */
export function workingTimePatch(before: Clock, status: TaskStatus | undefined, at: string, interrupted = false): TaskPatch {
  if (status === undefined || status === before.status) return {};
  const patch: TaskPatch = {};
  if (before.workingSince !== undefined) {
    const stretch = interrupted ? 0 : Date.parse(at) - Date.parse(before.workingSince);
    patch.workingMs = before.workingMs + Math.max(0, Number.isFinite(stretch) ? stretch : 0);
    patch.workingSince = null;
  }
  if (status === WORKING_STATUS) patch.workingSince = at;
  return patch;
}

/** Working milliseconds as of `now` (ms since epoch): what was counted plus the open stretch, if any. */
export function workingMsAt(clock: Pick<Clock, 'workingMs' | 'workingSince'>, now: number): number {
  if (clock.workingSince === undefined) return clock.workingMs;
  return clock.workingMs + Math.max(0, now - Date.parse(clock.workingSince));
}
