// The board's data and the one pure reducer that applies the core's events to it. Status always comes
// from the core (`task` events carry the new summary); the board only remembers what it was told.
import { nextActivity, sealActivity, type Activity } from '../../../shared/activity';
import type { EventEnvelope } from '../../../shared/events';
import type { TaskSummary } from '../../../shared/task';

export type { Activity } from '../../../shared/activity';

export interface BoardData {
  tasks: Record<string, TaskSummary>;
  /** Task ids in submission order. */
  order: string[];
  activity: Record<string, Activity>;
  /** The last event seq applied; the events socket resumes after it. */
  lastSeq: number;
}

export const EMPTY_BOARD: BoardData = { tasks: {}, order: [], activity: {}, lastSeq: 0 };

/** The board from lists the core sent (possibly several, e.g. active tasks and a page of finished ones). */
export function loadBoard(tasks: readonly TaskSummary[], lastSeq: number, previous: BoardData = EMPTY_BOARD): BoardData {
  const byId: Record<string, TaskSummary> = {};
  for (const task of tasks) byId[task.id] = task;
  const activity: Record<string, Activity> = {};
  for (const [id, value] of Object.entries(previous.activity)) if (byId[id]) activity[id] = value;
  return { tasks: byId, order: bySubmission(Object.values(byId)), activity, lastSeq };
}

/** Adds a page of tasks (older finished ones) the board did not hold yet; what it holds is as new or newer. */
export function mergeTasks(state: BoardData, page: readonly TaskSummary[]): BoardData {
  const fresh = page.filter((task) => !(task.id in state.tasks));
  if (fresh.length === 0) return state;
  const tasks = { ...state.tasks };
  for (const task of fresh) tasks[task.id] = task;
  return { ...state, tasks, order: bySubmission(Object.values(tasks)) };
}

/** Ids in submission order: a resubmission's new time puts it last, as the core orders it. Stable for equal times. */
function bySubmission(tasks: readonly TaskSummary[]): string[] {
  return [...tasks].sort((a, b) => (a.submittedAt < b.submittedAt ? -1 : a.submittedAt > b.submittedAt ? 1 : 0)).map((task) => task.id);
}

/** Applies one event; events at or below `lastSeq` were applied already and change nothing. */
export function applyEvent(state: BoardData, envelope: EventEnvelope): BoardData {
  return applyEvents(state, [envelope]);
}

/** Applies a batch in one copy, so a frame's worth of events costs one new state, not one per event. */
export function applyEvents(state: BoardData, envelopes: readonly EventEnvelope[]): BoardData {
  let tasks = state.tasks;
  let order = state.order;
  let activity = state.activity;
  let lastSeq = state.lastSeq;
  for (const { seq, taskId, event } of envelopes) {
    if (seq <= lastSeq) continue;
    lastSeq = seq;
    // An attempt's own task, or a judge's, is no card: the task it is of stands for it (the core never lists it either).
    if (event.type === 'task' && (event.task.attemptOf !== undefined || event.task.judgeOf !== undefined)) continue;
    if (event.type === 'task') {
      if (tasks === state.tasks) tasks = { ...tasks };
      if (!(event.task.id in tasks)) order = [...order, event.task.id];
      tasks[event.task.id] = event.task;
      const current = activity[taskId];
      const sealed = sealActivity(current);
      if (sealed !== current) {
        if (activity === state.activity) activity = { ...activity };
        activity[taskId] = sealed as Activity;
      }
    } else if (event.type === 'agent' && taskId in tasks) {
      const next = nextActivity(activity[taskId], event.update);
      if (next && next !== activity[taskId]) {
        if (activity === state.activity) activity = { ...activity };
        activity[taskId] = next;
      }
    }
  }
  if (lastSeq === state.lastSeq) return state;
  return { tasks, order, activity, lastSeq };
}
