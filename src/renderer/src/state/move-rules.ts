// What dropping a card on another column may do: only what the task's status allows. The core still
// decides; this only picks which request to make, or says why there is none.
import type { TaskSummary } from '../../../shared/task';
import { columnOf, COLUMNS, isFinished, type ColumnId } from './selectors';

export type MoveIntent =
  | { action: 'none' }
  | { action: 'approve' }
  | { action: 'cancel' }
  | { action: 'refuse'; reason: string };

const WHY_NOT: Record<ColumnId, string> = {
  queued: 'A task goes back to Queued only when it runs again: use Re-run in its Changes tab.',
  working: 'A task starts working by itself when an agent slot is free and its dependencies are done.',
  'needs-input': 'Only its agent can ask for input.',
  review: 'A task reaches Review when its agent finishes.',
  done: 'Only a task in Review can be approved.',
  stopped: '',
};

export function moveIntent(task: Pick<TaskSummary, 'id' | 'status' | 'review'>, target: ColumnId): MoveIntent {
  const from = columnOf(task);
  if (from === target) return { action: 'none' };
  if (target === 'done' && from === 'review') return { action: 'approve' };
  if (target === 'stopped') {
    if (!isFinished(task.status)) return { action: 'cancel' };
    return { action: 'refuse', reason: `Task ${task.id} has finished already; reject it from its Changes tab to discard its work.` };
  }
  const title = COLUMNS.find((column) => column.id === target)?.title ?? target;
  return { action: 'refuse', reason: `Task ${task.id} cannot move to ${title}. ${WHY_NOT[target]}` };
}
