// What needs the person: tasks whose agent waits for an answer, and tasks ready for review. Pure; the tab
// title, the "Needs you" filter and notifications all read it the same way.
import type { TaskSummary } from '../../../shared/task';

export type NeedsYou = 'answer' | 'review';

/** Why a task needs the person, or undefined when it does not. */
export function needsYou(task: Pick<TaskSummary, 'status' | 'review' | 'openQuestions'>): NeedsYou | undefined {
  if (task.status === 'awaiting-input' || (task.openQuestions?.length ?? 0) > 0) return 'answer';
  if (task.status === 'completed' && task.review === 'pending') return 'review';
  return undefined;
}

export function countNeedingYou(tasks: Readonly<Record<string, TaskSummary>>): number {
  let count = 0;
  for (const id in tasks) if (needsYou(tasks[id] as TaskSummary)) count += 1;
  return count;
}

export const APP_TITLE = 'Assignment Desk';

/** The tab's title: "(3) Assignment Desk" while three tasks need an answer or a review. */
export function titleText(count: number, base = APP_TITLE): string {
  return count > 0 ? `(${count}) ${base}` : base;
}
