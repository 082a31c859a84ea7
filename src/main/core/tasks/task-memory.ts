// The task service's memory: the graph and the list clients read, loaded once from the database and fed every
// write right after it (same tick, so nothing sees them differ), and the open questions and the agent's last
// activity, whose changes change a task's summary without a write to the task. Status changes also keep the
// working time (working-time.ts).
import type { TaskEvent } from '../../../shared/events';
import type { TasksRepo, TaskRecord } from '../store/tasks-repo';
import { createActivityTracker } from './activity-tracker';
import { blockedReason, unmetDependencies } from './dependency-graph';
import { unarchivedWhenActive } from './task-archive';
import { createOpenQuestions, type OpenQuestions } from './open-questions';
import { createTaskGraph, type TaskGraph } from './task-graph';
import { createTaskListing, type TaskListingWriter } from './task-listing';
import type { QuietTasks } from './quiet-tasks';
import { attemptsBriefOf, toSummary } from './task-view';
import { attemptTaskId } from '../../../shared/task';
import { workingTimePatch } from './working-time';
import { withChanges } from '../with-changes';

export type { QuietTasks };

export interface TaskMemory {
  graph: TaskGraph;
  listing: TaskListingWriter;
  /** The tasks repo, writing through to the graph and the list. */
  tasks: TasksRepo;
  questions: OpenQuestions;
  summaryOf(task: TaskRecord): ReturnType<typeof toSummary>;
  /** Records a task's event, following what its agent did last on the way. */
  record(taskId: string, attempt: number, event: TaskEvent): void;
}

export interface TaskMemoryDeps {
  tasks: TasksRepo;
  unsandboxed(agent: string): boolean;
  record(taskId: string, attempt: number, event: TaskEvent): void;
  now(): Date;
  /** Which running tasks' agents went quiet (their summaries say since when). */
  quiet?: QuietTasks | undefined;
}

export function createTaskMemory(deps: TaskMemoryDeps): TaskMemory {
  const openQuestions = createOpenQuestions();
  const activity = createActivityTracker();
  const quietSince = (task: TaskRecord) => (task.status === 'in-progress' ? deps.quiet?.since(task.id) : undefined);
  const summaryOf = (task: TaskRecord) => {
    const lastActivity = activity.get(task.id) ?? task.lastActivity;
    const attempts = attemptsBriefOf(task, (n) => records.get(attemptTaskId(task.id, n)));
    return toSummary(lastActivity ? withChanges(task, { lastActivity }) : task, openQuestions.forTask(task.id), deps.unsandboxed(task.agent), blockedByOf(task), quietSince(task), attempts);
  };
  /** Why a queued task will not start by itself (a dependency failed, was cancelled or rejected); read from the graph. */
  const blockedByOf = (task: TaskRecord) => (task.status === 'queued' ? blockedReason(unmetDependencies(task.dependencies, graph.stateOf, task.after)) : undefined);

  const stored = deps.tasks.list();
  // Every record as last written: reads never go back to the database (a submission asked it twice).
  const records = new Map(stored.map((task) => [task.id, task]));
  const graph = createTaskGraph(stored);
  const listing = createTaskListing(stored, {
    summarize: summaryOf, load: (id) => records.get(id), unsandboxed: deps.unsandboxed,
    // Activity changes by the chunk; the list catches up when it is read, not at every chunk.
    beforeRead: () => { for (const id of activity.takeChanged()) listing.refresh(id); },
  });
  /** Tasks left working by an earlier run of the desk: that stretch's end is unknown, so it does not count. */
  const interrupted = new Set(stored.filter((task) => task.workingSince !== undefined).map((task) => task.id));
  // A task going quiet or speaking again changes its summary without a write to the task.
  deps.quiet?.onChange((id) => { if (graph.get(id)) listing.refresh(id); });
  const written = (record: TaskRecord): TaskRecord => {
    const before = graph.get(record.id);
    records.set(record.id, record);
    graph.put(record);
    listing.put(record);
    // An attempt's change shows on its task's card.
    if (record.attemptOf) listing.refresh(record.attemptOf.task);
    // A dependency that failed, was rejected or came back changes what its waiting tasks' summaries say.
    if (before && (before.status !== record.status || before.review !== record.review)) {
      for (const id of graph.dependentsOf(record.id)) if (graph.statusOf(id) === 'queued') listing.refresh(id);
    }
    return record;
  };
  const tasks: TasksRepo = {
    ...deps.tasks,
    get: (id) => records.get(id),
    list: () => [...records.values()].sort((a, b) => a.seq - b.seq),
    putSubmission: (task) => {
      activity.forget(task.id);
      interrupted.delete(task.id);
      return written(deps.tasks.putSubmission(task));
    },
    update: (id, patch) => {
      const status = patch.status ?? undefined;
      const before = status !== undefined && graph.statusOf(id) !== status ? records.get(id) : undefined;
      if (!before) return written(deps.tasks.update(id, unarchivedWhenActive(patch)));
      // A status change: the working time moves on, and what the agent did last is kept with the task. A change that
      // carries its own start or finish time is timed by it, so working time never exceeds finish − start.
      const at = patch.finishedAt ?? patch.startedAt ?? patch.updatedAt ?? deps.now().toISOString();
      const clock = workingTimePatch(before, status, at, interrupted.delete(id));
      const lastActivity = activity.get(id);
      activity.seal(id);
      return written(deps.tasks.update(id, { ...unarchivedWhenActive(patch), ...clock, ...(lastActivity && { lastActivity }) }));
    },
  };
  // A question opened or answered changes the task's summary without a write to the task.
  const questions: OpenQuestions = {
    ...openQuestions,
    open(question, askedAt) {
      const opened = openQuestions.open(question, askedAt);
      listing.refresh(question.taskId);
      return opened;
    },
    answer(taskId, questionId, answer) {
      const answered = openQuestions.answer(taskId, questionId, answer);
      listing.refresh(taskId);
      return answered;
    },
    cancelAll(taskId) {
      const cancelled = openQuestions.cancelAll(taskId);
      if (cancelled.length > 0) listing.refresh(taskId);
      return cancelled;
    },
  };

  const record = (taskId: string, attempt: number, event: TaskEvent) => {
    activity.observe(taskId, event);
    deps.record(taskId, attempt, event);
  };

  return { graph, listing, tasks, questions, summaryOf, record };
}
