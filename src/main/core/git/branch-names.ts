// Names the app gives a task in git: its branch, its worktree directory and its archive refs.
// Pure: the same desk and task id always map to the same names. Branches and archive refs carry the
// desk's id, so two desks (two data dirs) on one repository never name the same branch.
import { createHash } from 'node:crypto';

const BRANCH_PREFIX = 'desk/';
const ARCHIVE_PREFIX = 'refs/desk/archive/';
const MAX_SLUG_LENGTH = 40;

/** The branch a task's work lives on, e.g. `desk/k3f9qz2a/fix-login-3f2a9c1b` for desk `k3f9qz2a`. */
export function branchNameFor(deskId: string, taskId: string): string {
  return `${BRANCH_PREFIX}${deskId}/${worktreeDirNameFor(taskId)}`;
}

/**
 * The folder of a desk's task branches that `branch` is in, `desk/<desk id>/`, when `branch` is named as
 * branchNameFor names them; undefined for any other branch.
 */
export function taskBranchFolderOf(branch: string): string | undefined {
  const deskId = new RegExp(`^${BRANCH_PREFIX}([^/]+)/[^/]+$`).exec(branch)?.[1];
  return deskId === undefined ? undefined : `${BRANCH_PREFIX}${deskId}/`;
}

/** The task's directory name under the (per-desk) worktrees folder: the branch name's last part. */
export function worktreeDirNameFor(taskId: string): string {
  // The slug keeps names readable; the hash keeps ids that slug alike (`a/b`, `a:b`) apart.
  return `${slugOf(taskId)}-${createHash('sha256').update(taskId, 'utf8').digest('hex').slice(0, 8)}`;
}

/**
 * Where a retired task's work is kept: `refs/desk/archive/<desk id>/<dir name>/<UTC time>`, e.g.
 * `refs/desk/archive/k3f9qz2a/fix-login-3f2a9c1b/2025-01-02T03-04-05.678Z`. Outside refs/heads so it
 * never shows up as a branch, yet keeps the commits reachable (safe from gc).
 */
export function archiveRefFor(deskId: string, taskId: string, at: Date): string {
  // ':' is not allowed in ref names; the rest of an ISO time is, and it still sorts by time.
  return `${ARCHIVE_PREFIX}${deskId}/${worktreeDirNameFor(taskId)}/${at.toISOString().replace(/:/g, '-')}`;
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
