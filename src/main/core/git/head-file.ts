// The commit a worktree's HEAD names, read from git's own files without starting git: the sha of a commit just made,
// at the end of every task's turn. undefined whenever the files are not the plain kind (then ask git).
import { join } from 'node:path';
import type { GitRepo } from './git-runner';
import { readPlainSync } from './plain-file';

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const BRANCH_REF = /^ref: (refs\/heads\/[^\0\n\\]+)$/;

/** A file's text, refusing to follow a symbolic link (a legacy symbolic ref, or one planted to mislead); blocking, see ./plain-file.ts. */
function readPlainFile(path: string): string | undefined {
  const text = readPlainSync(path, 4096);
  return text === 'missing' || text === 'odd' ? undefined : text.trim();
}

/** HEAD's commit from `<gitDir>/HEAD` and a loose branch ref in the common dir; undefined for packed refs, reftable, anything odd. */
export async function headCommitFromFiles(repo: GitRepo): Promise<string | undefined> {
  const head = readPlainFile(join(repo.gitDir, 'HEAD'));
  if (head === undefined) return undefined;
  if (SHA.test(head)) return head;
  const ref = BRANCH_REF.exec(head)?.[1];
  if (ref === undefined || ref.split('/').some((part) => part === '' || part === '.' || part === '..')) return undefined;
  const commit = readPlainFile(join(repo.commonDir ?? repo.gitDir, ref));
  return commit !== undefined && SHA.test(commit) ? commit : undefined;
}
