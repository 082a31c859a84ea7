// Steps an AP client sends while the task's agent works: kept (in the database) in the order sent, and sent as
// follow-up turns one at a time, each when the turn before it completes. A turn that ends in error, or a cancel,
// drops the rest: the client sees how that step ended and decides what comes next.
import { FINISHED_STATUSES } from '../../../shared/task';
import type { EventBus } from '../events/event-bus';
import type { ApQueuedStep, ApRecordsRepo } from '../store/ap-records-repo';
import type { TaskService } from '../tasks/task-service';

export interface StepQueue {
  enqueue(taskId: string, input: string): ApQueuedStep;
  /** The task's steps still waiting, oldest first. */
  pending(taskId: string): ApQueuedStep[];
  /** Sends queued steps as turns end, starting with any a stopped desk left behind; returns the function that stops it. */
  start(): () => void;
}

export interface StepQueueDeps {
  tasks: TaskService;
  records: ApRecordsRepo;
  bus: EventBus;
  now(): Date;
}

export function createStepQueue(deps: StepQueueDeps): StepQueue {
  const { tasks, records } = deps;
  const sending = new Set<string>();

  function next(taskId: string): void {
    if (sending.has(taskId)) return;
    const task = tasks.summary(taskId);
    const [first] = records.queuedSteps(taskId, task.submittedAt);
    if (!first) return;
    if (task.status === 'error' || task.status === 'cancelled') {
      records.dropQueuedSteps(taskId);
      return;
    }
    if (task.status !== 'completed') return;
    sending.add(taskId);
    tasks.followUp(taskId, first.input).then(
      () => records.dropQueuedStep(first.seq),
      // Someone else's follow-up got there first: this one waits for the next turn's end. Otherwise it cannot run.
      () => { if (tasks.summary(taskId).status !== 'queued') records.dropQueuedSteps(taskId); },
    ).catch(() => undefined).finally(() => sending.delete(taskId));
  }

  /** Turns end inside the task service's own bookkeeping: look once it is done, and never let a closed desk throw here. */
  const later = (taskId: string) => setImmediate(() => {
    try {
      next(taskId);
    } catch {
      // The desk is closing (or the task is gone); queued steps stay in the database for the next start.
    }
  });

  return {
    enqueue: (taskId, input) => records.queueStep(taskId, tasks.summary(taskId).submittedAt, input, deps.now().toISOString()),
    pending: (taskId) => records.queuedSteps(taskId, tasks.summary(taskId).submittedAt),
    start() {
      const stop = deps.bus.subscribe(({ taskId, event }) => {
        if (event.type === 'task' && FINISHED_STATUSES.includes(event.task.status)) later(taskId);
      });
      for (const taskId of records.tasksWithQueuedSteps()) later(taskId);
      return stop;
    },
  };
}
