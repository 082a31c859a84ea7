// The task service's records as its parts share them: the memory (graph, list, open questions) over the database, and
// the few ways every part writes through it — save a patch and tell clients, log a line, look a task up or refuse.
import type { TaskEvent } from '../../../shared/events';
import type { TaskPatch, TaskRecord, TasksRepo } from '../store/tasks-repo';
import type { TurnsRepo } from '../store/turns-repo';
import { recordingPrompts } from './prompt-events';
import { dependencyCycle, taskNotFound } from './task-errors';
import { createTaskMemory, type QuietTasks, type TaskMemory } from './task-memory';

export type LogLevel = 'info' | 'warn' | 'error';

export interface TaskRecords extends Omit<TaskMemory, 'record'> {
  /** The turns repo, recording each prompt it stores as an event. */
  turns: TurnsRepo;
  /** Records an event of the task's attempt (`attempt`), following what its agent did last on the way. */
  record(taskId: string, attempt: number, event: TaskEvent): void;
  /** Writes the patch (stamped `updatedAt`) and tells clients the task's new summary. */
  save(id: string, patch: TaskPatch): TaskRecord;
  /** A line of the desk's own in the task's conversation. */
  log(task: TaskRecord, text: string, level?: LogLevel): void;
  /** The task, or `task_not_found`. */
  mustGet(id: string): TaskRecord;
  /** Refuses (`dependency_cycle`) dependencies that would close a circle through `id`. */
  assertNoCycle(id: string, dependencies: readonly string[]): void;
  /** The time now as stored (ISO). */
  now(): string;
}

export interface TaskRecordsDeps {
  tasks: TasksRepo;
  turns: TurnsRepo;
  record(taskId: string, attempt: number, event: TaskEvent): void;
  now(): Date;
  quiet?: QuietTasks | undefined;
  /** Whether the agent runs without the OS sandbox now. */
  unsandboxed(agent: string): boolean;
}

export function createTaskRecords(deps: TaskRecordsDeps): TaskRecords {
  // The graph, the list and open questions live in memory; every write goes through them after the database.
  const memory = createTaskMemory(deps);
  const { tasks, summaryOf, graph, record } = memory;
  const now = () => deps.now().toISOString();

  function save(id: string, patch: TaskPatch): TaskRecord {
    const updated = tasks.update(id, { ...patch, updatedAt: now() });
    record(id, updated.attempt, { type: 'task', task: summaryOf(updated) });
    // The task an attempt is of shows it in brief: its clients hear of the change too.
    const parent = updated.attemptOf && tasks.get(updated.attemptOf.task);
    if (parent) record(parent.id, parent.attempt, { type: 'task', task: summaryOf(parent) });
    return updated;
  }

  return {
    ...memory,
    turns: recordingPrompts(deps.turns, (id, event) => record(id, tasks.get(id)?.attempt ?? 0, event)),
    save,
    log: (task, text, level = 'info') => record(task.id, task.attempt, { type: 'log', level, source: 'desk', text }),
    mustGet(id) {
      const task = tasks.get(id);
      if (!task) throw taskNotFound(id);
      return task;
    },
    assertNoCycle(id, dependencies) {
      const cycle = graph.cycleFor(id, dependencies);
      if (cycle) throw dependencyCycle(cycle);
    },
    now,
  };
}
