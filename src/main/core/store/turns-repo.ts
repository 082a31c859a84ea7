// Typed reads and writes of task turns: the first prompt and every follow-up, each ending in its own commit.
import type { Db } from './database';

export type TurnStatus = 'pending' | 'running' | 'completed' | 'error' | 'cancelled';

export interface TurnRecord {
  taskId: string;
  turn: number;
  prompt: string;
  agent: string;
  status: TurnStatus;
  commit?: string;
  /** The agent's message text of the turn, kept for clients that show turns as steps. */
  output?: string;
  requestedAt: string;
  startedAt?: string;
  finishedAt?: string;
}

export type TurnPatch = Partial<Pick<TurnRecord, 'status' | 'commit' | 'output' | 'startedAt' | 'finishedAt'>>;

export interface TurnsRepo {
  /** Forgets a task's turns and stores its first (when its first run starts, or the run of a replacing submission). */
  startOver(taskId: string, prompt: string, agent: string, at: string): TurnRecord;
  /** Forgets a task's turns (a replacing submission, whose first turn is its own prompt until it starts). */
  forget(taskId: string): void;
  /** Adds a follow-up turn; returns it. */
  add(taskId: string, prompt: string, agent: string, at: string): TurnRecord;
  latest(taskId: string): TurnRecord | undefined;
  list(taskId: string): TurnRecord[];
  update(taskId: string, turn: number, patch: TurnPatch): void;
  /** How many turns of `agent` started at or after `since` (for prompts-per-hour limits). */
  countStartedSince(agent: string, since: string): number;
}

interface TurnRow {
  task_id: string; turn: number; prompt: string; agent: string; status: string; commit_sha: string | null; output: string | null;
  requested_at: string; started_at: string | null; finished_at: string | null;
}

export function createTurnsRepo(db: Db, repo: string): TurnsRepo {
  const removeAll = db.prepare('DELETE FROM task_turns WHERE repo = ? AND task_id = ?');
  const insert = db.prepare(`INSERT INTO task_turns (repo, task_id, turn, prompt, agent, status, requested_at)
    VALUES (?, ?, ?, ?, ?, 'pending', ?)`);
  const selectLatest = db.prepare<[string, string], TurnRow>('SELECT * FROM task_turns WHERE repo = ? AND task_id = ? ORDER BY turn DESC LIMIT 1');
  const selectAll = db.prepare<[string, string], TurnRow>('SELECT * FROM task_turns WHERE repo = ? AND task_id = ? ORDER BY turn');
  const countSince = db.prepare<[string, string, string], { n: number }>(
    'SELECT COUNT(*) AS n FROM task_turns WHERE repo = ? AND agent = ? AND started_at >= ?');
  const patchTurn = db.prepare(`UPDATE task_turns SET
      status = COALESCE(@status, status), commit_sha = COALESCE(@commit, commit_sha), output = COALESCE(@output, output),
      started_at = COALESCE(@startedAt, started_at), finished_at = COALESCE(@finishedAt, finished_at)
    WHERE repo = @repo AND task_id = @taskId AND turn = @turn`);

  const latest = (taskId: string) => {
    const row = selectLatest.get(repo, taskId);
    return row ? fromRow(row) : undefined;
  };
  const replaceTurns = (taskId: string, prompt: string, agent: string, at: string): TurnRecord => {
    removeAll.run(repo, taskId);
    insert.run(repo, taskId, 1, prompt, agent, at);
    return { taskId, turn: 1, prompt, agent, status: 'pending', requestedAt: at };
  };
  const replaceTurnsAtomically = db.transaction(replaceTurns);
  const add = (taskId: string, prompt: string, agent: string, at: string): TurnRecord => {
    const turn = (latest(taskId)?.turn ?? 0) + 1;
    insert.run(repo, taskId, turn, prompt, agent, at);
    return { taskId, turn, prompt, agent, status: 'pending', requestedAt: at };
  };

  return {
    // Inside an open transaction (the group commit's, when startRun runs in the same turn as a submission) it adds no
    // savepoint of its own: a failed insert then leaves the task without a stored turn, and its next start writes one.
    // With no transaction open, it is its own.
    startOver: (taskId, prompt, agent, at) => (db.inTransaction ? replaceTurns : replaceTurnsAtomically)(taskId, prompt, agent, at),
    forget: (taskId) => { removeAll.run(repo, taskId); },
    add,
    latest,
    list: (taskId) => selectAll.all(repo, taskId).map(fromRow),
    update(taskId, turn, patch) {
      patchTurn.run({ repo, taskId, turn, status: null, commit: null, output: null, startedAt: null, finishedAt: null, ...patch });
    },
    countStartedSince: (agent, since) => (countSince.get(repo, agent, since) as { n: number }).n,
  };
}

function fromRow(row: TurnRow): TurnRecord {
  return {
    taskId: row.task_id, turn: row.turn, prompt: row.prompt, agent: row.agent, status: row.status as TurnStatus,
    ...(row.commit_sha !== null && { commit: row.commit_sha }),
    ...(row.output !== null && { output: row.output }),
    requestedAt: row.requested_at,
    ...(row.started_at !== null && { startedAt: row.started_at }),
    ...(row.finished_at !== null && { finishedAt: row.finished_at }),
  };
}
