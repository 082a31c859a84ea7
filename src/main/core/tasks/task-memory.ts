// The task service's memory: the graph and the list clients read, loaded once from the database and fed every
// write right after it (same tick, so nothing sees them differ), and the open questions, whose changes
// change a task's summary without a write to the task.
import type { TasksRepo, TaskRecord } from '../store/tasks-repo';
import { blockedReason, unmetDependencies } from './dependency-graph';
import { createOpenQuestions, type OpenQuestions } from './open-questions';
import { createTaskGraph, type TaskGraph } from './task-graph';
import { createTaskListing, type TaskListingWriter } from './task-listing';
import type { QuietTasks } from './quiet-tasks';

export type { QuietTasks };
import { toSummary } from './task-view';

export interface TaskMemory {
  graph: TaskGraph;
  listing: TaskListingWriter;
  /** The tasks repo, writing through to the graph and the list. */
  tasks: TasksRepo;
  questions: OpenQuestions;
  summaryOf(task: TaskRecord): ReturnType<typeof toSummary>;
}

export function createTaskMemory(deps: { tasks: TasksRepo; unsandboxed(agent: string): boolean; quiet?: QuietTasks | undefined }): TaskMemory {
  const openQuestions = createOpenQuestions();
  const quietSince = (task: TaskRecord) => (task.status === 'in-progress' ? deps.quiet?.since(task.id) : undefined);
  const summaryOf = (task: TaskRecord) => toSummary(task, openQuestions.forTask(task.id), deps.unsandboxed(task.agent), blockedByOf(task), quietSince(task));
  /** Why a queued task will not start by itself (a dependency failed, was cancelled or rejected); read from the graph. */
  const blockedByOf = (task: TaskRecord) => (task.status === 'queued' ? blockedReason(unmetDependencies(task.dependencies, graph.stateOf, task.after)) : undefined);

  const stored = deps.tasks.list();
  const graph = createTaskGraph(stored);
  const listing = createTaskListing(stored, {
    summarize: summaryOf, load: (id) => deps.tasks.get(id), unsandboxed: deps.unsandboxed,
  });
  // A task going quiet or speaking again changes its summary without a write to the task.
  deps.quiet?.onChange((id) => { if (graph.get(id)) listing.refresh(id); });
  const written = (record: TaskRecord): TaskRecord => {
    const before = graph.get(record.id);
    graph.put(record);
    listing.put(record);
    // A dependency that failed, was rejected or came back changes what its waiting tasks' summaries say.
    if (before && (before.status !== record.status || before.review !== record.review)) {
      for (const id of graph.dependentsOf(record.id)) if (graph.statusOf(id) === 'queued') listing.refresh(id);
    }
    return record;
  };
  const tasks: TasksRepo = {
    ...deps.tasks,
    putSubmission: (task) => written(deps.tasks.putSubmission(task)),
    update: (id, patch) => written(deps.tasks.update(id, patch)),
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

  return { graph, listing, tasks, questions, summaryOf };
}
