// The commit a worktree's HEAD names, read from git's own files without starting git: the sha of a commit just made,
// at the end of every task's turn. undefined whenever the files are not the plain kind (then ask git).
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { GitRepo } from './git-runner';

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const BRANCH_REF = /^ref: (refs\/heads\/[^\0\n\\]+)$/;

/** A file's text, refusing to follow a symbolic link (a legacy symbolic ref, or one planted to mislead). */
async function readPlainFile(path: string): Promise<string | undefined> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
  if (!handle) return undefined;
  try {
    return (await handle.readFile('utf8')).trim();
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** HEAD's commit from `<gitDir>/HEAD` and a loose branch ref in the common dir; undefined for packed refs, reftable, anything odd. */
export async function headCommitFromFiles(repo: GitRepo): Promise<string | undefined> {
  const head = await readPlainFile(join(repo.gitDir, 'HEAD'));
  if (head === undefined) return undefined;
  if (SHA.test(head)) return head;
  const ref = BRANCH_REF.exec(head)?.[1];
  if (ref === undefined || ref.split('/').some((part) => part === '' || part === '.' || part === '..')) return undefined;
  const commit = await readPlainFile(join(repo.commonDir ?? repo.gitDir, ref));
  return commit !== undefined && SHA.test(commit) ? commit : undefined;
}
