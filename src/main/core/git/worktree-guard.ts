// Checks that a task worktree still links to its repository the way the desk made it: the `.git`
// file, and the worktree's git dir files that say where the repository and the worktree are. An agent
// can rewrite any of them; git would then read or write another repository.
import { lstatSync } from 'node:fs';
import { lstat, readFile, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { gitFailed, worktreeTampered } from './git-errors';
import type { GitRepo } from './git-runner';
import { readPlainSync } from './plain-file';
import type { WorktreeRecords } from './worktree-records';

/** The link files git writes are one line; anything much longer is not git's. */
const LINK_FILE_MAX_BYTES = 64 * 1024;

export interface ExpectedWorktree {
  /** The worktree's files. */
  path: string;
  /** Its git dir as git wrote it into `<path>/.git`. */
  gitDir: string;
  /** The repository's shared git dir. */
  commonDir: string;
  /** When given, HEAD must name this branch (commits must land on the task's branch). */
  branch?: string;
}

/**
 * Throws `worktree_tampered` naming the first file that no longer says what the desk expects. Checked before every
 * commit: its files are read with blocking calls (./plain-file.ts), which refuse a link or a FIFO an agent planted.
 */
export async function assertWorktreeIntact(expected: ExpectedWorktree): Promise<void> {
  const dotGit = join(expected.path, '.git');
  const read = readPlainSync(dotGit, LINK_FILE_MAX_BYTES);
  if (read === 'missing') throw worktreeTampered(dotGit, 'it is gone');
  if (read === 'odd') {
    const info = lstatSync(dotGit, { throwIfNoEntry: false });
    throw worktreeTampered(dotGit, info?.isDirectory() ? 'it is now a directory, a repository of its own' : 'it is no longer a plain file');
  }
  const link = read.trim();
  if (link !== `gitdir: ${expected.gitDir}`) throw worktreeTampered(dotGit, `it points at ${link.replace(/^gitdir:\s*/, '')} instead of ${expected.gitDir}`);

  const commondirFile = join(expected.gitDir, 'commondir');
  const common = readLinkFile(commondirFile);
  if (common === undefined || !(await samePath(resolve(expected.gitDir, common), expected.commonDir))) {
    throw worktreeTampered(commondirFile, `it should name ${expected.commonDir}`);
  }
  const gitdirFile = join(expected.gitDir, 'gitdir');
  const back = readLinkFile(gitdirFile);
  if (back === undefined || !isAbsolute(back) || !(await samePath(dirname(back), expected.path)) || !back.endsWith('.git')) {
    throw worktreeTampered(gitdirFile, `it should name ${dotGit}`);
  }
  if (expected.branch !== undefined) {
    const headFile = join(expected.gitDir, 'HEAD');
    const head = readLinkFile(headFile);
    if (head !== `ref: refs/heads/${expected.branch}`) throw worktreeTampered(headFile, `HEAD should name the task's branch ${expected.branch}`);
  }
}

/** The worktree at `path` as the desk made it, checked: its git dir from the desk's records, never from the worktree. */
export async function recordedWorktree(records: Pick<WorktreeRecords, 'atPath'>, commonDir: string, path: string): Promise<GitRepo> {
  const record = await records.atPath(path);
  // A worktree made before the desk kept records: its link is accepted only when it checks out both ways.
  const gitDir = record?.gitDir ?? await linkedGitDir(path, commonDir);
  if (!gitDir) throw gitFailed(['commit'], undefined, `${path} is not a worktree this desk made`);
  await assertWorktreeIntact({ path, gitDir, commonDir, ...(record && { branch: record.branch }) });
  return { gitDir, workTree: path, commonDir };
}

/**
 * For a worktree the desk made before it kept records: the git dir its `.git` file names, accepted
 * only when it is one of the repository's worktree dirs and names this worktree back.
 */
export async function linkedGitDir(path: string, commonDir: string): Promise<string | undefined> {
  const dotGit = join(path, '.git');
  const info = await lstat(dotGit).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  const gitDir = (await readFile(dotGit, 'utf8')).trim().replace(/^gitdir:\s*/, '');
  if (!isAbsolute(gitDir) || !(await samePath(dirname(gitDir), join(commonDir, 'worktrees')))) return undefined;
  const back = await readText(join(gitDir, 'gitdir'));
  return back !== undefined && await samePath(dirname(back), path) ? gitDir : undefined;
}

/** One of git's link files in the worktree's git dir, trimmed; undefined when it is not a plain file. */
function readLinkFile(file: string): string | undefined {
  const text = readPlainSync(file, LINK_FILE_MAX_BYTES);
  return text === 'missing' || text === 'odd' ? undefined : text.trim();
}

async function readText(file: string): Promise<string | undefined> {
  return readFile(file, 'utf8').then((text) => text.trim(), () => undefined);
}

async function samePath(a: string, b: string): Promise<boolean> {
  // One spelling has one real path: the file system is asked only when the spellings differ (a link on the way).
  if (resolve(a) === resolve(b)) return true;
  const [ra, rb] = await Promise.all([realpath(a).catch(() => resolve(a)), realpath(b).catch(() => resolve(b))]);
  return ra === rb;
}
