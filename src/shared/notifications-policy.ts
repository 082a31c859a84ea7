// When the desk tells the person something (an OS notification in the desktop app, a browser notification on
// the board in a browser): a task starts waiting for an answer ("needs input") or finishes its turn ("ready
// for review"). Once per such moment, however often the task's summary is re-sent, and not while the person
// is looking at the board. Pure.
import type { EventEnvelope } from './events';
import type { TaskStatus, TaskSummary } from './task';

export interface DeskNotification {
  taskId: string;
  title: string;
  body: string;
}

/** The last status each task was seen with; a new moment is a change into a status worth telling. */
export type SeenStatuses = ReadonlyMap<string, TaskStatus>;

export interface NotificationStep {
  seen: SeenStatuses;
  notification?: DeskNotification;
}

export function notificationFor(seen: SeenStatuses, envelope: EventEnvelope, windowFocused: boolean): NotificationStep {
  // Most events are agent output: they leave the map as it is, without a copy.
  if (envelope.event.type !== 'task') return { seen };
  return notificationForTask(seen, envelope.event.task, windowFocused);
}

/** The same decision for a task summary as it now stands (the board reads summaries, not events). */
export function notificationForTask(seen: SeenStatuses, task: TaskSummary, windowFocused: boolean): NotificationStep {
  const before = seen.get(task.id);
  if (before === task.status) return { seen };
  const next = new Map(seen).set(task.id, task.status);
  if (windowFocused) return { seen: next };
  if (task.status === 'awaiting-input') {
    const question = task.openQuestions?.[0]?.prompt;
    return { seen: next, notification: { taskId: task.id, title: `${short(task.title)} needs input`, body: question ?? 'The agent is waiting for an answer.' } };
  }
  if (task.status === 'completed' && task.review === 'pending') {
    return { seen: next, notification: { taskId: task.id, title: `${short(task.title)} is ready for review`, body: `Task ${task.id} finished its turn${task.commit ? ` (commit ${task.commit.slice(0, 7)})` : ''}.` } };
  }
  return { seen: next };
}

/** Notification titles are one line; long task titles are cut with an ellipsis. */
function short(text: string, max = 60): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
