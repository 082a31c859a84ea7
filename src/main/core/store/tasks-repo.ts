// Typed reads and writes of the tasks table for one repository; callers never see SQL.
import type { AttemptRecommendation, AttentionFile, ChangeCount, CheckResult, ChooseAttempt, DependencyGate, NoChanges, ProposalState, PushOutcome, ReviewState, TaskActivity, TaskConflict, TaskStatus } from '../../../shared/task';
import type { AgentImplementation } from '../../../shared/agents';
import type { RunnerKind } from '../../../shared/runners';
import type { PullRequest } from '../../../shared/pull-request';
import type { Db } from './database';
import { withChanges } from '../with-changes';

/** A task as the core keeps it. */
export interface TaskRecord {
  id: string;
  /** Submission order; a resubmission moves the task to the end. */
  seq: number;
  prompt: string;
  dependencies: string[];
  agent: string;
  status: TaskStatus;
  review: ReviewState;
  submittedAt: string;
  updatedAt: string;
  startedAt?: string;
  finishedAt?: string;
  baseBranch: string;
  /** The base branch's commit the task's worktree started from (before dependencies were merged in). */
  baseCommit?: string;
  branch?: string;
  worktreePath?: string;
  commit?: string;
  errorMessage?: string;
  attempt: number;
  agentPid?: number;
  sessionId?: string;
  /** `approved`: the task starts only once every dependency is approved, not merely completed. */
  after?: DependencyGate;
  /** An update from the base branch waiting in the worktree for its conflicts to be resolved. */
  conflict?: TaskConflict;
  /** The push after approval, once tried. */
  push?: PushOutcome;
  /** The pull/merge request opened for the task, as the desk last read it. */
  pullRequest?: PullRequest;
  /** The repository the task runs in, by name; absent in a desk that was not told its repositories' names. */
  repo?: string;
  /** When a person archived the finished task: hidden from the board, kept in the database. */
  archivedAt?: string;
  /** Milliseconds spent in-progress before the current stretch (see working-time.ts). */
  workingMs: number;
  /** When the current in-progress stretch began; absent while the task does not work. */
  workingSince?: string;
  /** What the agent did last, as of the task's last status change (the live value is kept in memory). */
  lastActivity?: TaskActivity;
  /** Who the agent said it is at its last start (initialize's agentInfo). */
  agentInfo?: AgentImplementation;
  /** Set when another task's agent proposed this task: that task's id, the proposal's state, its audit request. */
  proposedBy?: string;
  proposal?: ProposalState;
  proposalRequest?: string;
  /** Where the agent runs; left out: `local`. */
  runner?: RunnerKind;
  /** The latest turn ended without changing a file (and made no commit). */
  noChanges?: NoChanges;
  /** The files of `commit` that need attention (docs/security.md), once read; `commit` says which commit they are of. */
  attention?: TaskAttention;
  /** What the task's branch changed as of its latest commit. */
  changes?: ChangeCount;
  /** The repository's check on the latest turn's work, once it ran. */
  check?: CheckResult;
  /** A task submitted with several attempts: how they run and which one was kept. */
  attempts?: AttemptsPlan;
  /** An attempt's own task: the task it is an attempt of, and its number. */
  attemptOf?: AttemptOf;
}

/** The attempts of a task: each one's agent (attempt n is `agents[n - 1]`), how one is chosen, the one kept, their diff stats. */
export interface AttemptsPlan {
  agents: string[];
  choose?: ChooseAttempt;
  chosen?: number;
  /** What each completed attempt's commit changed, by attempt number. */
  stats: Record<string, { filesChanged: number; additions: number; deletions: number }>;
  /** The tokens each attempt's turn took, by attempt number, where its agent reported them. */
  tokens?: Record<string, number>;
  /** The agent that judges the attempts once all have ended (../tasks/attempt-judging.ts). */
  judge?: string;
  /** Set when the judge's turn was asked for (a new submission's plan starts without it). */
  judgeStarted?: true;
  /** The judge's answer: the attempt it recommends, or why it recommends none (a person chooses then). */
  recommendation?: AttemptRecommendation;
  judgeNote?: string;
}

/** An attempt's own task: the task it is an attempt of, and its number; `n` is JUDGE_N on the judge's own task. */
export interface AttemptOf { task: string; n: number }

/** `attemptOf.n` of a judge's own task (attempts count from 1). */
export const JUDGE_N = 0;

/** What the desk read of a commit's files that need attention. */
export interface TaskAttention { commit: string; files: AttentionFile[] }

/** Fields a run may change; `null` clears a field. */
export type TaskPatch = {
  [K in Exclude<keyof TaskRecord, 'id' | 'seq' | 'submittedAt' | 'repo'>]?: TaskRecord[K] | null;
};

export interface TasksRepo {
  get(id: string): TaskRecord | undefined;
  /** All tasks in submission order (read once at start; the task service keeps them in memory after that). */
  list(): TaskRecord[];
  /** Stores a new submission, replacing any earlier task with the same id; it has not worked yet. */
  putSubmission(task: Omit<TaskRecord, 'seq' | 'workingMs'>): TaskRecord;
  update(id: string, patch: TaskPatch): TaskRecord;
}

interface TaskRow {
  id: string; seq: number; prompt: string; dependencies: string; agent: string; status: string; review: string;
  submitted_at: string; updated_at: string; started_at: string | null; finished_at: string | null;
  base_branch: string; base_commit: string | null; branch: string | null; worktree_path: string | null; commit_sha: string | null;
  error_message: string | null; attempt: number; agent_pid: number | null; session_id: string | null; wait_until: string; conflict: string | null; push_result: string | null;
  repo_name: string | null; archived_at: string | null; working_ms: number; working_since: string | null; last_activity: string | null;
  proposed_by: string | null; proposal: string | null; proposal_request: string | null; runner: string; agent_info: string | null; pull_request: string | null; no_changes: string | null; attention: string | null; changes: string | null; check_result: string | null; attempts: string | null; attempt_of: string | null;
}

const COLUMNS: Record<keyof TaskPatch, keyof TaskRow> = {
  prompt: 'prompt', dependencies: 'dependencies', agent: 'agent', status: 'status', review: 'review',
  updatedAt: 'updated_at', startedAt: 'started_at', finishedAt: 'finished_at', baseBranch: 'base_branch',
  baseCommit: 'base_commit', branch: 'branch', worktreePath: 'worktree_path', commit: 'commit_sha', errorMessage: 'error_message',
  attempt: 'attempt', agentPid: 'agent_pid', sessionId: 'session_id', after: 'wait_until', conflict: 'conflict', push: 'push_result',
  archivedAt: 'archived_at', workingMs: 'working_ms', workingSince: 'working_since', lastActivity: 'last_activity',
  proposedBy: 'proposed_by', proposal: 'proposal', proposalRequest: 'proposal_request', runner: 'runner', agentInfo: 'agent_info', pullRequest: 'pull_request', noChanges: 'no_changes', attention: 'attention', changes: 'changes', check: 'check_result', attempts: 'attempts', attemptOf: 'attempt_of',
};

/**
 * `defaultRepo`: the name of the desk's default repository, whose tasks are stored without one (so rows from
 * before several repositories read as its tasks, and it may be renamed).
 */
export function createTasksRepo(db: Db, repo: string, options: { defaultRepo?: string } = {}): TasksRepo {
  const { defaultRepo } = options;
  // Rows come back as arrays (READ_COLUMNS' order): better-sqlite3 builds an object per row through V8's API, which
  // took longer than the read itself (about 20 µs a row: loading 10,000 tasks at start took 0.17 s longer).
  const selectOne = db.prepare<[string, string], unknown[]>(`SELECT ${READ_COLUMNS.join(', ')} FROM tasks WHERE repo = ? AND id = ?`).raw();
  const selectAll = db.prepare<[string], unknown[]>(`SELECT ${READ_COLUMNS.join(', ')} FROM tasks WHERE repo = ? ORDER BY seq`).raw();
  const nextSeq = db.prepare<[], { next: number }>('SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM tasks');
  // REPLACE: a resubmission's row takes the earlier one's place in one statement (no transaction of its own).
  // Bound by position: binding 33 named parameters from an object cost more than the insert itself.
  const insert = db.prepare(`INSERT OR REPLACE INTO tasks (repo, ${ROW_COLUMNS.join(', ')}, repo_name) VALUES (${Array.from({ length: ROW_COLUMNS.length + 2 }, () => '?').join(', ')})`);
  const updateStatements = new Map<string, ReturnType<Db['prepare']>>();

  function get(id: string): TaskRecord | undefined {
    const row = selectOne.get(repo, id);
    return row ? fromRow(row, defaultRepo) : undefined;
  }

  // MAX(seq) over every repository cannot use the (repo, seq) index: asked per submission, it made intake
  // slow down as tasks piled up. One desk owns the data dir (desk.lock), so the count is read once.
  let lastSeq: number | undefined;
  const putSubmission = (submitted: Omit<TaskRecord, 'seq' | 'workingMs'>): TaskRecord => {
    lastSeq ??= (nextSeq.get() as { next: number }).next - 1;
    const seq = lastSeq + 1;
    // The record as a read gives it back (the task service keeps it instead of reading it): unnamed means the default,
    // which is stored as no name.
    const taskRepo = submitted.repo ?? defaultRepo;
    const task = withChanges(submitted, { seq, workingMs: 0, ...(taskRepo !== undefined && { repo: taskRepo }) });
    insert.run(repo, ...rowValues(task), task.repo === defaultRepo ? null : task.repo ?? null);
    lastSeq = seq;
    return task;
  };

  return {
    get,
    list: () => selectAll.all(repo).map((row) => fromRow(row, defaultRepo)),
    putSubmission,
    update(id, patch) {
      const keys = (Object.keys(patch) as (keyof TaskPatch)[]).filter((key) => patch[key] !== undefined).sort();
      if (keys.length > 0) {
        const signature = keys.join(',');
        let statement = updateStatements.get(signature);
        if (!statement) {
          const assignments = keys.map((key) => `${COLUMNS[key]} = @${key}`).join(', ');
          statement = db.prepare(`UPDATE tasks SET ${assignments} WHERE repo = @repo AND id = @id`);
          updateStatements.set(signature, statement);
        }
        const values: Record<string, unknown> = { repo, id };
        for (const key of keys) {
          const value = patch[key];
          values[key] = (key === 'dependencies' || key === 'lastActivity' || key === 'conflict' || key === 'push' || key === 'agentInfo' || key === 'pullRequest' || key === 'noChanges' || key === 'attention' || key === 'changes' || key === 'check' || key === 'attempts' || key === 'attemptOf') && value !== null && typeof value === 'object' ? JSON.stringify(value) : value;
        }
        statement.run(values);
      }
      const updated = get(id);
      if (!updated) throw new Error(`No task ${id} to update`);
      return updated;
    },
  };
}

function fromRow(values: unknown[], defaultRepo: string | undefined): TaskRecord {
  // By position (see READ_INDEX): typed as the column it names.
  const col = <K extends keyof TaskRow>(column: K) => values[READ_INDEX[column]] as TaskRow[K];
  const taskRepo = col('repo_name') ?? defaultRepo;
  const conflict = col('conflict');
  const push = col('push_result');
  const archivedAt = col('archived_at');
  const workingSince = col('working_since');
  const lastActivity = col('last_activity');
  const proposedBy = col('proposed_by');
  const proposal = col('proposal');
  const proposalRequest = col('proposal_request');
  const runner = col('runner');
  const agentInfo = col('agent_info');
  const pullRequest = col('pull_request');
  const noChanges = col('no_changes');
  const attention = col('attention');
  const changes = col('changes');
  const check = col('check_result');
  const attempts = col('attempts');
  const attemptOf = col('attempt_of');
  return {
    id: col('id'),
    seq: col('seq'),
    prompt: col('prompt'),
    dependencies: JSON.parse(col('dependencies')) as string[],
    agent: col('agent'),
    status: col('status') as TaskStatus,
    review: col('review') as ReviewState,
    submittedAt: col('submitted_at'),
    updatedAt: col('updated_at'),
    startedAt: col('started_at') ?? undefined,
    finishedAt: col('finished_at') ?? undefined,
    baseBranch: col('base_branch'),
    baseCommit: col('base_commit') ?? undefined,
    branch: col('branch') ?? undefined,
    worktreePath: col('worktree_path') ?? undefined,
    commit: col('commit_sha') ?? undefined,
    errorMessage: col('error_message') ?? undefined,
    attempt: col('attempt'),
    agentPid: col('agent_pid') ?? undefined,
    sessionId: col('session_id') ?? undefined,
    ...(col('wait_until') === 'approved' && { after: 'approved' as const }),
    ...(conflict !== null && { conflict: JSON.parse(conflict) as TaskConflict }),
    ...(push !== null && { push: JSON.parse(push) as PushOutcome }),
    ...(taskRepo !== undefined && { repo: taskRepo }),
    ...(archivedAt !== null && { archivedAt }),
    workingMs: col('working_ms'),
    ...(workingSince !== null && { workingSince }),
    ...(lastActivity !== null && { lastActivity: JSON.parse(lastActivity) as TaskActivity }),
    ...(proposedBy !== null && { proposedBy }),
    ...(proposal !== null && { proposal: proposal as ProposalState }),
    ...(proposalRequest !== null && { proposalRequest }),
    ...(runner !== 'local' && { runner: runner as RunnerKind }),
    ...(agentInfo !== null && { agentInfo: JSON.parse(agentInfo) as AgentImplementation }),
    ...(pullRequest !== null && { pullRequest: JSON.parse(pullRequest) as PullRequest }),
    ...(noChanges !== null && { noChanges: JSON.parse(noChanges) as NoChanges }),
    ...(attention !== null && { attention: JSON.parse(attention) as TaskAttention }),
    ...(changes !== null && { changes: JSON.parse(changes) as ChangeCount }),
    ...(check !== null && { check: JSON.parse(check) as CheckResult }),
    ...(attempts !== null && { attempts: JSON.parse(attempts) as AttemptsPlan }),
    ...(attemptOf !== null && { attemptOf: JSON.parse(attemptOf) as AttemptOf }),
  };
}

/** The columns a submission writes, in the order the insert binds them (`repo` first and `repo_name` last are the repository's). */
const ROW_COLUMNS = [
  'id', 'seq', 'prompt', 'dependencies', 'agent', 'status', 'review', 'submitted_at', 'updated_at', 'started_at', 'finished_at',
  'base_branch', 'base_commit', 'branch', 'worktree_path', 'commit_sha', 'error_message', 'attempt', 'agent_pid', 'session_id',
  'wait_until', 'conflict', 'push_result', 'archived_at', 'working_ms', 'working_since', 'last_activity', 'proposed_by', 'proposal',
  'proposal_request', 'runner', 'agent_info', 'pull_request', 'no_changes', 'attention', 'changes', 'check_result', 'attempts', 'attempt_of',
] as const satisfies readonly (keyof Omit<TaskRow, 'repo_name'>)[];
/** Fails to compile when a column of the row is left out of ROW_COLUMNS (it would be stored as NULL). */
const _everyColumnWritten: [Exclude<keyof Omit<TaskRow, 'repo_name'>, (typeof ROW_COLUMNS)[number]>] extends [never] ? true : never = true;

/** What the reads select, in this order: a submission's columns, then the repository's name. */
const READ_COLUMNS = [...ROW_COLUMNS, 'repo_name'] as const;
/** Where each column is in a raw row. */
const READ_INDEX = Object.fromEntries(READ_COLUMNS.map((column, index) => [column, index])) as Record<keyof TaskRow, number>;

/** A submission's values in ROW_COLUMNS' order, each typed as the column at its place. */
type ValuesOf<C extends readonly (keyof TaskRow)[]> = { -readonly [I in keyof C]: C[I] extends keyof TaskRow ? TaskRow[C[I]] : never };
type RowValues = ValuesOf<typeof ROW_COLUMNS>;

/**
 * The insert's values, built in place: an object by column name, then read back column by column, was the largest
 * item of the desk's own code in a CPU profile of intake. Columns of one type could swap unseen by the compiler here;
 * tasks-repo-round-trip.test.ts catches that.
 */
function rowValues(task: TaskRecord): RowValues {
  return [
    task.id, task.seq, task.prompt, JSON.stringify(task.dependencies), task.agent, task.status, task.review, task.submittedAt, task.updatedAt,
    task.startedAt ?? null, task.finishedAt ?? null, task.baseBranch, task.baseCommit ?? null, task.branch ?? null, task.worktreePath ?? null,
    task.commit ?? null, task.errorMessage ?? null, task.attempt, task.agentPid ?? null, task.sessionId ?? null, task.after ?? 'completed',
    task.conflict ? JSON.stringify(task.conflict) : null, task.push ? JSON.stringify(task.push) : null, task.archivedAt ?? null, task.workingMs,
    task.workingSince ?? null, task.lastActivity ? JSON.stringify(task.lastActivity) : null, task.proposedBy ?? null, task.proposal ?? null,
    task.proposalRequest ?? null, task.runner ?? 'local', task.agentInfo ? JSON.stringify(task.agentInfo) : null,
    task.pullRequest ? JSON.stringify(task.pullRequest) : null, task.noChanges ? JSON.stringify(task.noChanges) : null,
    task.attention ? JSON.stringify(task.attention) : null,
    task.changes ? JSON.stringify(task.changes) : null,
    task.check ? JSON.stringify(task.check) : null,
    task.attempts ? JSON.stringify(task.attempts) : null, task.attemptOf ? JSON.stringify(task.attemptOf) : null,
  ];
}
