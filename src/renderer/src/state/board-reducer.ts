// The board's data and the one pure reducer that applies the core's events to it. Status always comes
// from the core (`task` events carry the new summary); the board only remembers what it was told.
import type { AgentUpdate, EventEnvelope } from '../../../shared/events';
import type { TaskSummary } from '../../../shared/task';

/** What a card says the agent did last: a tool call's title or the tail of its message. */
export interface Activity {
  kind: 'tool' | 'message' | 'thought' | 'plan';
  text: string;
  /** Set when the task's status changed since: the next message starts a new snippet instead of continuing this one. */
  sealed?: boolean;
}

export interface BoardData {
  tasks: Record<string, TaskSummary>;
  /** Task ids in submission order. */
  order: string[];
  activity: Record<string, Activity>;
  /** The last event seq applied; the events socket resumes after it. */
  lastSeq: number;
}

export const EMPTY_BOARD: BoardData = { tasks: {}, order: [], activity: {}, lastSeq: 0 };

const ACTIVITY_CHARS = 160;

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
    if (event.type === 'task') {
      if (tasks === state.tasks) tasks = { ...tasks };
      if (!(event.task.id in tasks)) order = [...order, event.task.id];
      tasks[event.task.id] = event.task;
      const current = activity[taskId];
      if (current && !current.sealed) {
        if (activity === state.activity) activity = { ...activity };
        activity[taskId] = { ...current, sealed: true };
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

/** The card's latest activity after an agent update; message chunks join the message they continue. */
export function nextActivity(previous: Activity | undefined, update: AgentUpdate): Activity | undefined {
  switch (update.kind) {
    case 'tool-call':
      return { kind: 'tool', text: oneLine(update.title ?? update.toolKind ?? 'Tool call') };
    case 'tool-call-update':
      return update.title ? { kind: 'tool', text: oneLine(update.title) } : previous;
    case 'message': {
      if (update.role === 'user') return previous;
      const kind = update.role === 'thought' ? 'thought' : 'message';
      const joined = previous?.kind === kind && !previous.sealed ? previous.text + update.text : update.text;
      const text = oneLine(joined);
      return { kind, text: text.length > ACTIVITY_CHARS ? text.slice(-ACTIVITY_CHARS) : text };
    }
    case 'plan': {
      const done = update.entries.filter((entry) => entry.status === 'completed').length;
      return { kind: 'plan', text: `Plan: ${done} of ${update.entries.length} done` };
    }
    default:
      return previous;
  }
}

/** Collapses white space; the end is kept so the next chunk joins with its space. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trimStart();
}
