// Pure views of the board's data: which column a task sits in, what the filters keep, what a card shows.
import type { TaskStatus, TaskSummary } from '../../../shared/task';
import { ACTIVE_STATUSES } from '../../../shared/task-status-labels';
import { needsYou } from '../attention/attention';
import type { Activity, BoardData } from './board-reducer';

export type ColumnId = 'queued' | 'working' | 'needs-input' | 'review' | 'done' | 'stopped';

export const COLUMNS: readonly { id: ColumnId; title: string }[] = [
  { id: 'queued', title: 'Queued' },
  { id: 'working', title: 'Working' },
  { id: 'needs-input', title: 'Needs input' },
  { id: 'review', title: 'Review' },
  { id: 'done', title: 'Done' },
  { id: 'stopped', title: 'Stopped' },
];


/** Whether the task's run is over (a follow-up or re-run may start another). */
export function isFinished(status: TaskStatus): boolean {
  return !ACTIVE_STATUSES.includes(status);
}

export function columnOf(task: Pick<TaskSummary, 'status' | 'review'>): ColumnId {
  if (task.review === 'rejected') return 'stopped';
  switch (task.status) {
    case 'queued': return 'queued';
    case 'in-progress': return 'working';
    case 'awaiting-input': return 'needs-input';
    case 'completed': return task.review === 'approved' ? 'done' : 'review';
    default: return 'stopped';
  }
}

export interface Filters {
  search: string;
  /** An agent as agentLabel names it, or '' for every agent. */
  agent: string;
  /** A task status, or '' for every status. */
  status: TaskStatus | '';
  /** A repository's name, or '' (absent: the same) for every repository. */
  repo?: string;
  /** True: only archived tasks; otherwise only tasks on the board. */
  archived?: boolean;
  /** Only tasks that need the person: an open question, or ready for review. */
  needsYou?: boolean;
}

export const NO_FILTERS: Filters = { search: '', agent: '', status: '' };

/** Whether a task passes the filters; the search looks at its id, title and whatever of its prompt is known. */
export function matchesFilters(task: TaskSummary, filters: Filters, prompt?: string): boolean {
  if (filters.agent && agentLabel(task) !== filters.agent) return false;
  if (filters.repo && task.repo !== filters.repo) return false;
  if (filters.status && task.status !== filters.status) return false;
  if ((task.archived === true) !== (filters.archived === true)) return false;
  if (filters.needsYou && !needsYou(task)) return false;
  const needle = filters.search.trim().toLowerCase();
  if (!needle) return true;
  return [task.id, task.title, prompt ?? ''].some((text) => text.toLowerCase().includes(needle));
}

/** The ids of one column's cards, in submission order, after the filters. */
export function columnTaskIds(
  data: Pick<BoardData, 'tasks' | 'order'>, column: ColumnId, filters: Filters, prompts: Record<string, string> = {},
): string[] {
  const ids: string[] = [];
  for (const id of data.order) {
    const task = data.tasks[id];
    if (task && columnOf(task) === column && matchesFilters(task, filters, prompts[id])) ids.push(id);
  }
  return ids;
}

/** Every column at once (each id in exactly one column). */
export function groupByColumn(
  data: Pick<BoardData, 'tasks' | 'order'>, filters: Filters, prompts: Record<string, string> = {},
): Record<ColumnId, string[]> {
  const columns: Record<ColumnId, string[]> = { queued: [], working: [], 'needs-input': [], review: [], done: [], stopped: [] };
  for (const id of data.order) {
    const task = data.tasks[id];
    if (task && matchesFilters(task, filters, prompts[id])) columns[columnOf(task)].push(id);
  }
  return columns;
}

/**
 * The agent as a person knows it: its own name and version once it said them at start ("Claude Code 0.16.2", also
 * behind the desk's `ad-hoc` id), the desk's id for it before.
 */
export function agentLabel(task: Pick<TaskSummary, 'agent' | 'agentInfo'>): string {
  const info = task.agentInfo;
  return info ? `${info.title ?? info.name} ${info.version}` : task.agent;
}

/** The distinct agents of the board's tasks (as agentLabel names them), sorted, for the agent filter. */
export function agentsOnBoard(data: Pick<BoardData, 'tasks'>): string[] {
  return [...new Set(Object.values(data.tasks).map(agentLabel))].sort();
}

export type DependencyState = 'waiting' | 'blocked' | 'met' | 'unknown';

export interface CardView {
  id: string;
  title: string;
  /** The agent as agentLabel names it, and the desk's id for it. */
  agent: string;
  agentId: string;
  status: TaskStatus;
  column: ColumnId;
  activity: string | undefined;
  dependencies: { id: string; state: DependencyState }[];
  needsAnswer: boolean;
  /** Its agent runs without the OS sandbox (the core says so; see Settings for why). */
  unsandboxed: boolean;
  /** Where its agent runs when not on this machine (`docker`, `cluster`). */
  runner: string | undefined;
  /** Editable links: only a queued task's dependencies change. */
  canLink: boolean;
  time: CardTime;
  /** The task whose agent proposed this one, and whether the proposal still waits for a person. */
  proposedBy: string | undefined;
  proposalPending: boolean;
}

/**
 * The working time a card shows: ticking from `since` while the agent works, held while it waits (for a
 * person, or queued for another turn), "took" once its run is over; none before it ever started.
 */
export type CardTime =
  | { kind: 'working'; ms: number; since: number }
  | { kind: 'paused'; ms: number }
  | { kind: 'took'; ms: number }
  | { kind: 'none' };

export function cardTime(task: Pick<TaskSummary, 'status' | 'workingMs' | 'workingSince' | 'startedAt'>): CardTime {
  const ms = task.workingMs;
  if (task.workingSince !== undefined) return { kind: 'working', ms, since: Date.parse(task.workingSince) };
  if (task.startedAt === undefined && ms === 0) return { kind: 'none' };
  return isFinished(task.status) ? { kind: 'took', ms } : { kind: 'paused', ms };
}

export function dependencyState(status: TaskStatus | 'unknown'): DependencyState {
  if (status === 'unknown') return 'unknown';
  if (status === 'error' || status === 'cancelled') return 'blocked';
  return status === 'completed' ? 'met' : 'waiting';
}

export function activityText(activity: Pick<Activity, 'kind' | 'text'> | undefined): string | undefined {
  const text = activity?.text.trim();
  if (!activity || !text) return undefined;
  return activity.kind === 'thought' ? `Thinking: ${text}` : text;
}

/** What a card shows, from its summary, its latest activity and its dependencies' statuses (same order). */
export function cardViewModel(
  task: TaskSummary, activity: Activity | undefined, dependencyStatuses: readonly (TaskStatus | 'unknown')[],
): CardView {
  return {
    id: task.id,
    title: task.title || task.id,
    agent: agentLabel(task),
    agentId: task.agent,
    status: task.status,
    column: columnOf(task),
    activity: activityText(activity ?? task.lastActivity),
    dependencies: task.dependencies.map((id, index) => ({ id, state: dependencyState(dependencyStatuses[index] ?? 'unknown') })),
    needsAnswer: (task.openQuestions?.length ?? 0) > 0,
    unsandboxed: task.unsandboxed === true,
    runner: task.runner,
    canLink: task.status === 'queued',
    time: cardTime(task),
    proposedBy: task.proposedBy,
    proposalPending: task.proposal === 'pending',
  };
}

/** "12s", "3m 05s", "2h 04m": calm, short, no jumping widths within a unit. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h ${String(minutes % 60).padStart(2, '0')}m`;
  return `${Math.floor(hours / 24)}d`;
}
