// A submission writes one row, the task's own. Its first turn is the task's prompt until its run starts, and only
// then is it stored (startRun): writing it with the task, in a table of three b-trees, plus its prompt event, cost
// about a fifth of intake. Reads of turns go through here, so they see that turn all the same.
import type { TaskRecord } from '../store/tasks-repo';
import type { TurnRecord } from '../store/turns-repo';

/**
 * The task's turns: those stored, or, while it has never started, the first turn its submission implies (pending,
 * or cancelled with the task). A task that started has its turns stored; one from before turns existed keeps none.
 */
export function turnsOfTask(task: TaskRecord, stored: TurnRecord[]): TurnRecord[] {
  if (stored.length > 0 || task.startedAt !== undefined) return stored;
  const cancelled = task.status === 'cancelled';
  return [{
    taskId: task.id, turn: 1, prompt: task.prompt, agent: task.agent, status: cancelled ? 'cancelled' : 'pending', requestedAt: task.submittedAt,
    ...(cancelled && task.finishedAt !== undefined && { finishedAt: task.finishedAt }),
  }];
}
