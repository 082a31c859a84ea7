// Test support for attacks on a person's repository: every file of its git dir by hash, so a test can say the
// refs, objects, index, HEAD, stash and reflogs came out byte-for-byte as they went in.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Every file of `gitDir` by its sha256, but what the desk itself changes for a task: its worktrees' git dirs and,
 * when named, the task's branch and that branch's reflog.
 */
export function snapshotGitDir(gitDir: string, branch?: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const name = relative(gitDir, path);
      if (name === 'worktrees' || (branch !== undefined && (name === `refs/heads/${branch}` || name === `logs/refs/heads/${branch}`))) continue;
      if (entry.isDirectory()) walk(path);
      else files.set(name, createHash('sha256').update(readFileSync(path)).digest('hex'));
    }
  };
  walk(gitDir);
  return files;
}

/**
 * What changed from `before` to now, `branch` (the task's) aside: files changed or gone, and files added outside
 * objects/ (objects the desk brought in for the task may be added; none present before may change).
 */
export function gitDirChanges(gitDir: string, before: ReadonlyMap<string, string>, branch: string): { changed: string[]; added: string[] } {
  const after = snapshotGitDir(gitDir, branch);
  return {
    changed: [...before].filter(([name, hash]) => after.get(name) !== hash).map(([name]) => name),
    added: [...after.keys()].filter((name) => !before.has(name) && !name.startsWith('objects/')),
  };
}
