// Names the app gives a task in git: its branch, its worktree directory and its archive refs.
// Pure, so the same task id always maps to the same names on every machine.
import { createHash } from 'node:crypto';

const BRANCH_PREFIX = 'desk/';
const ARCHIVE_PREFIX = 'refs/desk/archive/';
const MAX_SLUG_LENGTH = 40;

/** The branch a task's work lives on, e.g. `desk/fix-login-3f2a9c1b`. */
export function branchNameFor(taskId: string): string {
  return BRANCH_PREFIX + worktreeDirNameFor(taskId);
}

/** The task's directory name under the worktrees folder: the branch name without `desk/`. */
export function worktreeDirNameFor(taskId: string): string {
  // The slug keeps names readable; the hash keeps ids that slug alike (`a/b`, `a:b`) apart.
  return `${slugOf(taskId)}-${createHash('sha256').update(taskId, 'utf8').digest('hex').slice(0, 8)}`;
}

/**
 * Where a retired task's work is kept: `refs/desk/archive/<dir name>/<UTC time>`, e.g.
 * `refs/desk/archive/fix-login-3f2a9c1b/2025-01-02T03-04-05.678Z`. Outside refs/heads so it never
 * shows up as a branch, yet keeps the commits reachable (safe from gc).
 */
export function archiveRefFor(taskId: string, at: Date): string {
  // ':' is not allowed in ref names; the rest of an ISO time is, and it still sorts by time.
  return `${ARCHIVE_PREFIX}${worktreeDirNameFor(taskId)}/${at.toISOString().replace(/:/g, '-')}`;
}

function slugOf(taskId: string): string {
  const slug = taskId
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    // git refuses '..' anywhere in a ref.
    .replace(/\.{2,}/g, '.')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/\.lock$/i, '')
    // A ref component may not start with '.', and a leading '-' reads as an option to git.
    .replace(/^[.-]+/, '')
    .replace(/[.-]+$/, '');
  return slug || 'task';
}
