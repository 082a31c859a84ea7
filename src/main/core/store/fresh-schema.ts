// The schema every migration in migrations.ts leads to, written out once: a new database is made from it in one step
// instead of replaying each migration (their twenty ALTER TABLEs each make SQLite read the schema again: about half of
// opening a new database). Only ever a shortcut: database.test.ts checks it makes the same tables, columns and indexes
// as the migrations, and a database is made from it only when it is for the version the migrations reach.

/** The schema after `version` migrations; update both together when adding a migration (the test says if not). */
export const FRESH_SCHEMA = {
  version: 21,
  sql: `
  CREATE TABLE tasks (
    repo             TEXT    NOT NULL,
    id               TEXT    NOT NULL,
    seq              INTEGER NOT NULL,
    prompt           TEXT    NOT NULL,
    dependencies     TEXT    NOT NULL,
    agent            TEXT    NOT NULL,
    status           TEXT    NOT NULL,
    review           TEXT    NOT NULL DEFAULT 'pending',
    submitted_at     TEXT    NOT NULL,
    updated_at       TEXT    NOT NULL,
    started_at       TEXT,
    finished_at      TEXT,
    base_branch      TEXT    NOT NULL,
    branch           TEXT,
    worktree_path    TEXT,
    commit_sha       TEXT,
    error_message    TEXT,
    attempt          INTEGER NOT NULL DEFAULT 0,
    agent_pid        INTEGER,
    session_id       TEXT,
    base_commit      TEXT,
    wait_until       TEXT    NOT NULL DEFAULT 'completed',
    conflict         TEXT,
    push_result      TEXT,
    repo_name        TEXT,
    archived_at      TEXT,
    working_ms       INTEGER NOT NULL DEFAULT 0,
    working_since    TEXT,
    last_activity    TEXT,
    proposed_by      TEXT,
    proposal         TEXT,
    proposal_request TEXT,
    runner           TEXT    NOT NULL DEFAULT 'local',
    agent_info       TEXT,
    pull_request     TEXT,
    no_changes       TEXT,
    attention        TEXT,
    check_result     TEXT,
    attempts         TEXT,
    attempt_of       TEXT,
    PRIMARY KEY (repo, id)
  );
  CREATE INDEX tasks_by_seq ON tasks (repo, seq);

  CREATE TABLE events (
    seq     INTEGER PRIMARY KEY,
    repo    TEXT    NOT NULL,
    task_id TEXT    NOT NULL,
    attempt INTEGER NOT NULL,
    at      TEXT    NOT NULL,
    body    TEXT    NOT NULL,
    size    INTEGER NOT NULL DEFAULT 0,
    output  INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX events_by_task ON events (repo, task_id, seq);

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

  CREATE TABLE desk_repos (
    scope    TEXT    NOT NULL,
    name     TEXT    NOT NULL,
    path     TEXT    NOT NULL,
    position INTEGER NOT NULL,
    setup    TEXT,
    PRIMARY KEY (scope, name)
  );

  CREATE TABLE viewed_files (
    repo      TEXT NOT NULL,
    task_id   TEXT NOT NULL,
    path      TEXT NOT NULL,
    diff_key  TEXT NOT NULL,
    viewed_at TEXT NOT NULL,
    PRIMARY KEY (repo, task_id, path)
  );

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
} as const;

/** A schema written out for a version, for a new database. */
export interface FreshSchema {
  version: number;
  sql: string;
}
