// The git a task's container sees, decided from one run's task git dir (../../git/task-git-dir.ts): the same design
// as the local sandbox's, so the agent's git commits in a git dir of the task's own and the person's refs are absent.
import { join } from 'node:path';
import type { BorrowedFile } from '../../git/task-git-dir';

export interface ContainerGitFacts {
  /** The repository's shared git dir: only its objects, config, hooks and info are seen, read-only. */
  commonDir: string;
  worktree: string;
  /** The run's task git dir, its `.git` link file and the places in it the agent must not change. */
  taskGitDir: { dir: string; link: string; readOnly: readonly string[]; borrowed?: readonly BorrowedFile[] };
  /** Whether a path exists on the Docker host: a missing bind source would be made there, as root. */
  exists(path: string): boolean;
}

/** Parts of the shared git dir the task's git reads: the objects it borrows, and the config and hooks it includes. */
const SHARED_PARTS = ['objects', 'config', 'hooks', 'info'];

/**
 * `source:target:mode` binds, at the same paths as on this machine (the task git dir's files name them). The
 * daemon mounts parents before children, so read-only places inside the writable task git dir stay read-only.
 */
export function containerGitBinds(facts: ContainerGitFacts): string[] {
  const { dir, link, readOnly, borrowed = [] } = facts.taskGitDir;
  const same = (path: string, mode: 'ro' | 'rw') => `${path}:${path}:${mode}`;
  return [
    same(dir, 'rw'),
    ...readOnly.filter(facts.exists).map((path) => same(path, 'ro')),
    // The worktree's shared index, lent into the task's git dir: read there, never written.
    ...borrowed.map((file) => `${file.source}:${file.path}:ro`),
    ...SHARED_PARTS.map((part) => join(facts.commonDir, part)).filter(facts.exists).map((path) => same(path, 'ro')),
    // The worktree's `.git` names the task git dir in here, and cannot be rewritten to name another.
    `${link}:${join(facts.worktree, '.git')}:ro`,
  ];
}
