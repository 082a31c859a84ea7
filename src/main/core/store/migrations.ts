// Forward-only schema changes; the database's user_version says how many of them it has seen.

/** Each entry moves the schema from version i to i + 1. Never edit a shipped entry: add a new one. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE tasks (
    repo          TEXT    NOT NULL,
    id            TEXT    NOT NULL,
    seq           INTEGER NOT NULL,
    prompt        TEXT    NOT NULL,
    dependencies  TEXT    NOT NULL,
    agent         TEXT    NOT NULL,
    status        TEXT    NOT NULL,
    review        TEXT    NOT NULL DEFAULT 'pending',
    submitted_at  TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL,
    started_at    TEXT,
    finished_at   TEXT,
    base_branch   TEXT    NOT NULL,
    branch        TEXT,
    worktree_path TEXT,
    commit_sha    TEXT,
    error_message TEXT,
    attempt       INTEGER NOT NULL DEFAULT 0,
    agent_pid     INTEGER,
    session_id    TEXT,
    PRIMARY KEY (repo, id)
  );
  CREATE INDEX tasks_by_seq ON tasks (repo, seq);

  CREATE TABLE events (
    seq     INTEGER PRIMARY KEY,
    repo    TEXT    NOT NULL,
    task_id TEXT    NOT NULL,
    attempt INTEGER NOT NULL,
    at      TEXT    NOT NULL,
    body    TEXT    NOT NULL
  );
  CREATE INDEX events_by_task ON events (repo, task_id, seq);
  `,
  // Governance: every request an agent made and what became of it (the audit log). The record itself is
  // the JSON body; the columns are what lists filter and sort by.
  `
  CREATE TABLE governance_requests (
    repo       TEXT NOT NULL,
    id         TEXT PRIMARY KEY,
    agent_id   TEXT NOT NULL,
    task_id    TEXT,
    state      TEXT NOT NULL,
    created_at TEXT NOT NULL,
    body       TEXT NOT NULL
  );
  CREATE INDEX governance_requests_by_created ON governance_requests (repo, created_at);
  `,
  // 3: turns: the first prompt and every follow-up of a task, each with its own commit.
  `
  CREATE TABLE task_turns (
    repo         TEXT    NOT NULL,
    task_id      TEXT    NOT NULL,
    turn         INTEGER NOT NULL,
    prompt       TEXT    NOT NULL,
    agent        TEXT    NOT NULL,
    status       TEXT    NOT NULL,
    commit_sha   TEXT,
    output       TEXT,
    requested_at TEXT    NOT NULL,
    started_at   TEXT,
    finished_at  TEXT,
    PRIMARY KEY (repo, task_id, turn)
  );
  CREATE INDEX task_turns_by_agent ON task_turns (repo, agent, started_at);
  `,
  // 4: the base commit a task's worktree started from, so its diff and artifacts can be shown after a merge.
  `
  ALTER TABLE tasks ADD COLUMN base_commit TEXT;
  `,
  // 5: Agent Protocol: the additional_input a client sent with a task, the files clients uploaded into a task's
  // worktree, and steps sent while its agent worked (run in order once it finishes). Rows belong to one
  // submission (submitted_at); a resubmission leaves them behind.
  `
  CREATE TABLE ap_task_inputs (
    repo             TEXT NOT NULL,
    task_id          TEXT NOT NULL,
    submitted_at     TEXT NOT NULL,
    additional_input TEXT NOT NULL,
    PRIMARY KEY (repo, task_id)
  );
  CREATE TABLE ap_uploads (
    repo         TEXT NOT NULL,
    task_id      TEXT NOT NULL,
    path         TEXT NOT NULL,
    submitted_at TEXT NOT NULL,
    uploaded_at  TEXT NOT NULL,
    PRIMARY KEY (repo, task_id, path)
  );
  CREATE TABLE ap_queued_steps (
    seq          INTEGER PRIMARY KEY,
    repo         TEXT NOT NULL,
    task_id      TEXT NOT NULL,
    submitted_at TEXT NOT NULL,
    input        TEXT NOT NULL,
    queued_at    TEXT NOT NULL
  );
  CREATE INDEX ap_queued_steps_by_task ON ap_queued_steps (repo, task_id, seq);
  `,
  // 6: bounded output. `size` is the bytes of output text a row holds; `output` says what the per-task cap may do
  // with it: 0 kept (status, tool calls, logs…), 1 output the cap may drop (message runs, terminal output),
  // 2 the task's truncation marker. Rows written before this version count as kept. Free pages go back to the
  // file system with incremental_vacuum (database.ts switches auto_vacuum, which needs a VACUUM outside any
  // transaction, so it cannot live here).
  `
  ALTER TABLE events ADD COLUMN size INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE events ADD COLUMN output INTEGER NOT NULL DEFAULT 0;
  `,
  // 7: approval-gated dependencies. What the task's dependencies must reach before it starts: `completed` (as
  // before) or `approved`; fixed at submission.
  `
  ALTER TABLE tasks ADD COLUMN wait_until TEXT NOT NULL DEFAULT 'completed';
  `,
  // An update from the base branch that stopped on conflicts (JSON: base branch, base commit, files), until resolved or undone.
  `
  ALTER TABLE tasks ADD COLUMN conflict TEXT;
  `,
  // The push after a task's approval (JSON: remote, branch, ok, message, time), shown on the task.
  `
  ALTER TABLE tasks ADD COLUMN push_result TEXT;
  `,
  // Several repositories in one desk. `repo_name`: the repository a task runs in; NULL is the desk's default (its
  // first, whose path is the rows' `repo`), so rows written before this version stay in it. `desk_repos`: the
  // repositories a desk keeps open across restarts, in order, with the worktree setup its settings give each.
  `
  ALTER TABLE tasks ADD COLUMN repo_name TEXT;
  CREATE TABLE desk_repos (
    scope    TEXT    NOT NULL,
    name     TEXT    NOT NULL,
    path     TEXT    NOT NULL,
    position INTEGER NOT NULL,
    setup    TEXT,
    PRIMARY KEY (scope, name)
  );
  `,
  // Review at scale. `archived_at`: when a person archived the finished task (hidden from the board, kept here;
  // a new run of the task brings it back). `viewed_files`: the files of a task's diff a person marked as viewed, with
  // the key of the diff they saw, so a mark lapses when that file's diff changes.
  `
  ALTER TABLE tasks ADD COLUMN archived_at TEXT;
  CREATE TABLE viewed_files (
    repo      TEXT NOT NULL,
    task_id   TEXT NOT NULL,
    path      TEXT NOT NULL,
    diff_key  TEXT NOT NULL,
    viewed_at TEXT NOT NULL,
    PRIMARY KEY (repo, task_id, path)
  );
  `,
  // Working time and last activity on the task. `working_ms`: milliseconds spent in-progress before the current
  // stretch, which began at `working_since`; tasks that finished before this version get their run's length
  // (start to finish), the best the old rows can tell. `last_activity`: JSON of what the agent did last.
  `
  ALTER TABLE tasks ADD COLUMN working_ms INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE tasks ADD COLUMN working_since TEXT;
  ALTER TABLE tasks ADD COLUMN last_activity TEXT;
  UPDATE tasks SET working_ms = MAX(0, CAST(ROUND((julianday(finished_at) - julianday(started_at)) * 86400000) AS INTEGER))
    WHERE started_at IS NOT NULL AND finished_at IS NOT NULL;
  `,
  // Tasks proposed by another task's agent (the desk's MCP server): who proposed it, whether a person or the
  // policy accepted it yet (a pending proposal never runs), and the audit-log request that decides it.
  `
  ALTER TABLE tasks ADD COLUMN proposed_by TEXT;
  ALTER TABLE tasks ADD COLUMN proposal TEXT;
  ALTER TABLE tasks ADD COLUMN proposal_request TEXT;
  `,
  // 8: runners. Where the task's agent runs: `local` (this machine's sandbox, as before), `docker` or `cluster`.
  `
  ALTER TABLE tasks ADD COLUMN runner TEXT NOT NULL DEFAULT 'local';
  `,
  // 9: who the task's agent said it is (JSON of initialize's agentInfo: name, title, version), for cards and filters.
  `
  ALTER TABLE tasks ADD COLUMN agent_info TEXT;
  `,
  // 10: the task's pull or merge request on its forge (JSON: url, number, state, draft, checks…), once opened.
  `
  ALTER TABLE tasks ADD COLUMN pull_request TEXT;
  `,
  // 11: a turn that ended without changing a file: JSON of its summary and the steps that failed (NoChanges).
  `
  ALTER TABLE tasks ADD COLUMN no_changes TEXT;
  `,
  // 12: "Always allow" answers: a person chose it for a request of the task's agent, so the desk approves that
  // capability for the rest of the task (its row goes when the task is submitted again), and Settings offers it as a rule.
  `
  CREATE TABLE task_grants (
    repo       TEXT NOT NULL,
    task_id    TEXT NOT NULL,
    agent      TEXT NOT NULL,
    capability TEXT NOT NULL,
    request_id TEXT NOT NULL,
    granted_at TEXT NOT NULL,
    PRIMARY KEY (repo, task_id, agent, capability)
  );
  `,
  // 13: the files of the task's commit that need attention (they run code or steer agents on the person's machine),
  // JSON {commit, files: [{path, reason}]}, read once per commit for the card.
  `
  ALTER TABLE tasks ADD COLUMN attention TEXT;
  `,
  // 14: what the task's branch changed as of its latest commit (JSON: files, additions, deletions), for its card.
  `
  ALTER TABLE tasks ADD COLUMN changes TEXT;
  `,
  // 21: the repository's check on the latest turn's work (JSON CheckResult: status, exitCode, durationMs, outputTail).
  `
  ALTER TABLE tasks ADD COLUMN check_result TEXT;
  `,
  // 22: attempts. On a task submitted with several: JSON of its plan (agents, how one is chosen, the one chosen, each
  // attempt's diff stats); on each attempt's own task: JSON {task, n} of the task it is an attempt of.
  `
  ALTER TABLE tasks ADD COLUMN attempts TEXT;
  ALTER TABLE tasks ADD COLUMN attempt_of TEXT;
  `,
];
