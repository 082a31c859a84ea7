// Typed reads and writes of what Agent Protocol clients gave a task: the additional_input they sent with it, the
// files they uploaded into its worktree and the steps waiting for its agent. Rows belong to one submission (submittedAt).
import type { Db } from './database';

export interface ApUploadRecord {
  taskId: string;
  /** POSIX path inside the worktree. */
  path: string;
  uploadedAt: string;
}

export interface ApQueuedStep {
  seq: number;
  input: string;
  queuedAt: string;
}

export interface ApRecordsRepo {
  putTaskInput(taskId: string, submittedAt: string, additionalInput: Record<string, unknown>): void;
  /** The additional_input sent with this submission of the task, if it came through AP. */
  taskInput(taskId: string, submittedAt: string): Record<string, unknown> | undefined;
  /** Records an upload (again: the latest time wins). */
  putUpload(taskId: string, submittedAt: string, path: string, uploadedAt: string): void;
  /** Uploads into this submission of the task, oldest first. */
  uploads(taskId: string, submittedAt: string): ApUploadRecord[];
  queueStep(taskId: string, submittedAt: string, input: string, queuedAt: string): ApQueuedStep;
  /** Steps waiting for this submission's agent, in the order they were sent. */
  queuedSteps(taskId: string, submittedAt: string): ApQueuedStep[];
  dropQueuedStep(seq: number): void;
  /** Forgets every queued step of the task (any submission). */
  dropQueuedSteps(taskId: string): void;
  /** Tasks with queued steps, for a desk that stopped before it ran them. */
  tasksWithQueuedSteps(): string[];
}

export function createApRecordsRepo(db: Db, repo: string): ApRecordsRepo {
  const upsertInput = db.prepare(`INSERT INTO ap_task_inputs (repo, task_id, submitted_at, additional_input) VALUES (?, ?, ?, ?)
    ON CONFLICT (repo, task_id) DO UPDATE SET submitted_at = excluded.submitted_at, additional_input = excluded.additional_input`);
  const selectInput = db.prepare<[string, string, string], { additional_input: string }>(
    'SELECT additional_input FROM ap_task_inputs WHERE repo = ? AND task_id = ? AND submitted_at = ?');
  const upsertUpload = db.prepare(`INSERT INTO ap_uploads (repo, task_id, path, submitted_at, uploaded_at) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (repo, task_id, path) DO UPDATE SET submitted_at = excluded.submitted_at, uploaded_at = excluded.uploaded_at`);
  const selectUploads = db.prepare<[string, string, string], { path: string; uploaded_at: string }>(
    'SELECT path, uploaded_at FROM ap_uploads WHERE repo = ? AND task_id = ? AND submitted_at = ? ORDER BY uploaded_at, path');

  const insertStep = db.prepare('INSERT INTO ap_queued_steps (repo, task_id, submitted_at, input, queued_at) VALUES (?, ?, ?, ?, ?)');
  const selectSteps = db.prepare<[string, string, string], { seq: number; input: string; queued_at: string }>(
    'SELECT seq, input, queued_at FROM ap_queued_steps WHERE repo = ? AND task_id = ? AND submitted_at = ? ORDER BY seq');
  const deleteStep = db.prepare('DELETE FROM ap_queued_steps WHERE repo = ? AND seq = ?');
  const deleteSteps = db.prepare('DELETE FROM ap_queued_steps WHERE repo = ? AND task_id = ?');
  const selectQueuedTasks = db.prepare<[string], { task_id: string }>('SELECT DISTINCT task_id FROM ap_queued_steps WHERE repo = ?');

  return {
    putTaskInput(taskId, submittedAt, additionalInput) {
      upsertInput.run(repo, taskId, submittedAt, JSON.stringify(additionalInput));
    },
    taskInput(taskId, submittedAt) {
      const row = selectInput.get(repo, taskId, submittedAt);
      return row ? JSON.parse(row.additional_input) as Record<string, unknown> : undefined;
    },
    putUpload(taskId, submittedAt, path, uploadedAt) {
      upsertUpload.run(repo, taskId, path, submittedAt, uploadedAt);
    },
    uploads: (taskId, submittedAt) => selectUploads.all(repo, taskId, submittedAt).map((row) => ({ taskId, path: row.path, uploadedAt: row.uploaded_at })),
    queueStep(taskId, submittedAt, input, queuedAt) {
      const { lastInsertRowid } = insertStep.run(repo, taskId, submittedAt, input, queuedAt);
      return { seq: Number(lastInsertRowid), input, queuedAt };
    },
    queuedSteps: (taskId, submittedAt) => selectSteps.all(repo, taskId, submittedAt).map((row) => ({ seq: row.seq, input: row.input, queuedAt: row.queued_at })),
    dropQueuedStep(seq) {
      deleteStep.run(repo, seq);
    },
    dropQueuedSteps(taskId) {
      deleteSteps.run(repo, taskId);
    },
    tasksWithQueuedSteps: () => selectQueuedTasks.all(repo).map((row) => row.task_id),
  };
}
