// Typed reads and writes of the viewed marks of task diffs (one row per task and file); callers never see SQL.
import type { Db } from './database';

export interface ViewedRepo {
  /** File path → the diff key it was marked viewed at. */
  forTask(taskId: string): Record<string, string>;
  mark(taskId: string, path: string, key: string, at: string): void;
  unmark(taskId: string, path: string): void;
}

export function createViewedRepo(db: Db, repo: string): ViewedRepo {
  const select = db.prepare<[string, string], { path: string; diff_key: string }>('SELECT path, diff_key FROM viewed_files WHERE repo = ? AND task_id = ?');
  const upsert = db.prepare(`INSERT INTO viewed_files (repo, task_id, path, diff_key, viewed_at) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (repo, task_id, path) DO UPDATE SET diff_key = excluded.diff_key, viewed_at = excluded.viewed_at`);
  const remove = db.prepare('DELETE FROM viewed_files WHERE repo = ? AND task_id = ? AND path = ?');
  return {
    forTask: (taskId) => Object.fromEntries(select.all(repo, taskId).map((row) => [row.path, row.diff_key])),
    mark: (taskId, path, key, at) => { upsert.run(repo, taskId, path, key, at); },
    unmark: (taskId, path) => { remove.run(repo, taskId, path); },
  };
}
