// What clients read of tasks: the list kept in memory, one summary, a task's turns with their output, and its detail
// (dependencies unmet, open questions, what holds it back).
import type { AttemptView, TaskDetail, TaskSummary } from '../../../shared/task';
import type { TaskRecord } from '../store/tasks-repo';
import type { TurnRecord } from '../store/turns-repo';
import { turnsOfTask } from './first-turn';
import type { TaskGraph } from './task-graph';
import type { TaskListing } from './task-listing';
import type { TaskRecords } from './task-records';
import type { TaskRuns } from './task-runs';
import { toDetail } from './task-view';

export interface TaskReads {
  list(): TaskSummary[];
  /** The list kept in memory and serialized once per change: what `GET /` and `/api/tasks` send. */
  readonly listing: TaskListing;
  /** The dependency graph kept in memory (read-only), as the database has it. */
  readonly graph: Pick<TaskGraph, 'get' | 'nodes' | 'dependentsOf' | 'statusOf'>;
  summary(id: string): TaskSummary;
  /** The task's turns with their output (the detail leaves the agent's text out). Throws `task_not_found`. */
  turns(id: string): TurnRecord[];
  /** Throws `task_not_found`. */
  detail(id: string): TaskDetail;
}

export interface TaskReadsDeps {
  records: Pick<TaskRecords, 'listing' | 'graph' | 'turns' | 'questions' | 'summaryOf' | 'mustGet'>;
  runs: Pick<TaskRuns, 'heldBy'>;
  /** Whether the agent runs confined by the OS sandbox now. */
  confines(agent: string): boolean;
  /** What a task with attempts shows of each. */
  attemptsOf?(task: TaskRecord): AttemptView[];
}

export function createTaskReads(deps: TaskReadsDeps): TaskReads {
  const { listing, graph, turns, questions, summaryOf, mustGet } = deps.records;
  return {
    list: () => listing.list(),
    listing,
    graph,
    summary: (id) => listing.get(id) ?? summaryOf(mustGet(id)),
    turns: (id) => turnsOfTask(mustGet(id), turns.list(id)),
    detail(id) {
      const task = mustGet(id);
      return toDetail(task, {
        unsandboxed: !deps.confines(task.agent),
        stateOf: graph.stateOf, openQuestions: questions.forTask(id), turns: turnsOfTask(task, turns.list(id)),
        ...(task.status === 'queued' && { heldBy: deps.runs.heldBy(task) }),
        ...(task.attempts && deps.attemptsOf && { attempts: deps.attemptsOf(task), attemptsBrief: summaryOf(task).attemptsBrief }),
      });
    },
  };
}
