// A task's own git dir for one sandboxed run: the agent's git commits, branches and stashes there, borrowing the
// person's objects read-only, so the person's refs, index, HEAD, stash and reflogs stay out of its reach. After
// the run the desk, not the agent, takes the agent's commits onto the task's branch once they check out.
import { readdirSync } from 'node:fs';
import { copyFile, lstat, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { diskFullMessage, isDiskFull, mountPointOf } from '../host/disk-full';
import type { GitRepo, GitRunner } from './git-runner';
import { readPlainSync } from './plain-file';
import { isAncestorCommit } from './refs';
import { createRefSnapshots, type RefSnapshots } from './ref-snapshot';
import { hiddenTaskBranchesFor } from './ref-snapshot-text';
import { branchRefOfHead, planTaskGitDir, refNamedBy, tipOf } from './task-git-dir-plan';
import { localFilesCommitted } from './vendor-local-files';

export interface TaskGitDirRequest {
  /** Where to make it (a fresh path in the desk's data dir). */
  dir: string;
  /** The repository's shared git dir (absolute, real). */
  commonDir: string;
  worktree: string;
  /** The worktree's own git dir in the repository, `<commonDir>/worktrees/<name>` (checked by the caller). */
  worktreeGitDir: string;
  /** How `dir` is written and read (../sandbox/run-folder-files.ts: synchronously on a memory file system); default: through the thread pool. */
  files?: TaskGitDirFiles;
}

/** The file operations on the task's git dir. */
export interface TaskGitDirFiles {
  mkdir(path: string): Promise<void>;
  writeFile(path: string, text: string): Promise<void>;
  /** Copies `from` when it exists. */
  copyIfThere(from: string, to: string): Promise<void>;
  /** The text of `path` when it is a plain file (never a link or a FIFO the agent planted), else undefined. */
  readPlainFile(path: string): Promise<string | undefined>;
}

const threadPoolFiles: TaskGitDirFiles = {
  mkdir: async (path) => { await mkdir(path, { recursive: true }); },
  writeFile: (path, text) => writeFile(path, text),
  copyIfThere: (from, to) => copyIfThere(from, to),
  readPlainFile: (path) => readIfThere(path),
};

/** A file of the worktree's git dir, seen read-only at `path` in the run's git dir. */
export interface BorrowedFile {
  path: string;
  source: string;
}

export interface TaskGitDir {
  readonly dir: string;
  /** A `.git` file naming `dir`, mounted over the worktree's own inside the sandbox. */
  readonly link: string;
  /** Places in `dir` the agent must not change: what steers git (config, info) and where objects are borrowed from. */
  readonly readOnly: readonly string[];
  /**
   * Files of `dir` that are the worktree's own, to be seen read-only at `path` from `source` wherever the run is
   * confined: a split index's shared part (tens of MB on a large repository) is borrowed, not copied into each run.
   * At `path` itself the desk leaves an empty file, the mount's target.
   */
  readonly borrowed: readonly BorrowedFile[];
  /** The commit the task's branch was on when the run started. */
  readonly startCommit: string;
  /**
   * After the run (nothing of the sandbox left running): when the agent's HEAD moved, fetches its commits into the
   * repository, checks they are complete and descend from the start, then moves the task's branch (only if it is
   * still at the start) and makes the worktree's index that commit. Returns the commit taken; says on `log` why not.
   */
  takeCommits(log: (line: string) => void): Promise<string | undefined>;
}

/** Files of the worktree's git dir the agent's git reads as its own: the index, and a merge waiting on conflicts. */
const COPIED_STATE = ['index', 'MERGE_HEAD', 'MERGE_MSG', 'MERGE_MODE'];
/**
 * A split index's shared part (a layer's, ../workspace/snapshot-index.ts), which git looks for beside the index. git
 * never writes one in place: it writes a new one under another name, so the worktree's can be lent read-only.
 */
const SHARED_INDEX = /^sharedindex\.[0-9a-f]{40,64}$/;
const MERGE_STATE = ['MERGE_HEAD', 'MERGE_MSG', 'MERGE_MODE', 'AUTO_MERGE'];
/** The person's ignore and attribute files, read as they were. */
const COPIED_INFO = ['exclude', 'attributes'];

/**
 * `git`: a runner with hooks off (the desk's own). `snapshots`: the person's refs, kept for the desk's life so that they
 * are mostly read from files (see ref-snapshot.ts). Git runs only when the files cannot say, or the agent committed.
 */
export async function openTaskGitDir(git: GitRunner, request: TaskGitDirRequest, snapshots: RefSnapshots = createRefSnapshots(git)): Promise<TaskGitDir> {
  const { dir, commonDir, worktree, worktreeGitDir, files = threadPoolFiles } = request;
  const common: GitRepo = { gitDir: commonDir };
  const worktreeHead = readHead(join(worktreeGitDir, 'HEAD'));
  const refs = await snapshots.read(commonDir, hiddenTaskBranchesFor(branchRefOfHead(worktreeHead)));
  const plan = planTaskGitDir({ commonDir, worktreeHead, refs });
  const link = `${dir}.link`;
  await Promise.all(['objects/info', 'objects/pack', dirname(plan.branchRef), 'refs/tags', 'info'].map((sub) => files.mkdir(join(dir, sub))));
  // Blocking: a listing of the worktree's small git dir, on every run's way to its start.
  const borrowed = listedOrNone(worktreeGitDir).filter((name) => SHARED_INDEX.test(name))
    .map((name) => ({ path: join(dir, name), source: join(worktreeGitDir, name) }));
  await Promise.all([
    ...Object.entries(plan.files).map(([name, text]) => files.writeFile(join(dir, name), text)),
    ...COPIED_STATE.map((name) => files.copyIfThere(join(worktreeGitDir, name), join(dir, name))),
    ...borrowed.map((file) => files.writeFile(file.path, '')),
    ...COPIED_INFO.map((name) => files.copyIfThere(join(commonDir, 'info', name), join(dir, 'info', name))),
    files.writeFile(link, `gitdir: ${dir}\n`),
  ]);
  const branch = plan.branchRef.slice('refs/heads/'.length);
  const start = plan.startCommit;

  // git on this machine reads the task's git dir to fetch from it: one made to borrow objects or take its refs and
  // config from elsewhere (a `commondir` file, an objects dir put in place of the read-only one) is not read at all.
  const ledAway = async (): Promise<string | undefined> => {
    if (await lstat(join(dir, 'commondir')).then(() => true, () => false)) return 'its git dir was made to lead to another (a commondir file)';
    if (await files.readPlainFile(join(dir, 'objects', 'info', 'alternates')) !== plan.files['objects/info/alternates']) return 'its git dir was made to borrow objects from elsewhere';
    return undefined;
  };
  const reasonNotTaken = async (tip: string): Promise<string | undefined> => {
    // The agent's objects come over as git sends them; git checks what arrives, and rev-list that nothing is missing.
    // Neither command is asked to be quiet: simple-git waits 50 ms more after a command that printed nothing.
    const fetched = await git.exec(common, ['fetch', '--no-tags', '--no-write-fetch-head', '--no-recurse-submodules', dir, 'HEAD']);
    if (fetched.exitCode !== 0) {
      // The objects go into the person's repository: when its file system is the full one, that is what to free.
      if (isDiskFull(fetched.stderr)) return diskFullMessage({ what: "the agent's commits", path: commonDir }, await mountPointOf(commonDir));
      return `git could not fetch them (${firstLine(fetched.stderr)})`;
    }
    const complete = await git.exec(common, ['rev-list', '--objects', '--count', tip, '--not', start]);
    if (complete.exitCode !== 0) return `${short(tip)} is incomplete: ${firstLine(complete.stderr)}`;
    if (!(await isAncestorCommit(git, common, start, tip))) return `${short(tip)} does not descend from ${short(start)}, where the task's branch was when the turn started`;
    // Their history would carry the agent's own settings (standing permissions) into the person's repository.
    const local = await localFilesCommitted(git, common, start, tip);
    if (local.length > 0) return `they hold ${local.map((file) => `${file.path} (${file.what})`).join(', ')}, which never enters a task's commit`;
    const moved = await git.exec(common, ['update-ref', '-m', 'desk: the agent\'s commits', '--end-of-options', plan.branchRef, tip, start]);
    if (moved.exitCode !== 0) return `${branch} moved meanwhile (${firstLine(moved.stderr)})`;
    return undefined;
  };

  return {
    dir,
    link,
    readOnly: [join(dir, 'config'), join(dir, 'info'), join(dir, 'objects', 'info')],
    borrowed,
    startCommit: start,
    async takeCommits(log) {
      // Files only: a turn whose agent made no commit costs no git process here.
      const head = await files.readPlainFile(join(dir, 'HEAD'));
      const ref = refNamedBy(head);
      const tip = tipOf({
        head,
        looseRef: ref === undefined ? undefined : await files.readPlainFile(join(dir, ref)),
        packedRefs: await files.readPlainFile(join(dir, 'packed-refs')),
      });
      if (tip === undefined || tip === start) return undefined;
      const reason = await ledAway() ?? await reasonNotTaken(tip);
      if (reason !== undefined) {
        log(`The agent's own commits were not taken: ${reason}. ${branch} stays at ${short(start)}; the files the agent left are committed as the turn's work.`);
        return undefined;
      }
      const worktreeRepo: GitRepo = { gitDir: worktreeGitDir, workTree: worktree, commonDir };
      // From the start to the tip, so entries the agent's commits left alone keep their stat data (no rehash of the
      // tree by the next `git status`); an index that no longer matches the start is read from the tip whole.
      const moved = await git.exec(worktreeRepo, ['read-tree', '-m', start, tip]);
      if (moved.exitCode !== 0) await git.run(worktreeRepo, ['read-tree', tip]);
      // A merge from the base that the agent committed itself is done: the desk's commit must not make it again.
      const merging = (await readIfThere(join(worktreeGitDir, 'MERGE_HEAD')))?.trim();
      if (merging !== undefined && await isAncestorCommit(git, common, merging, tip).catch(() => false)) {
        await Promise.all(MERGE_STATE.map((name) => rm(join(worktreeGitDir, name), { force: true })));
      }
      log(`Took the agent's own commits: ${branch} is now at ${short(tip)} (from ${short(start)}).`);
      return tip;
    },
  };
}

/** The worktree's HEAD as git wrote it, read with a blocking call (./plain-file.ts); throws when it is not a plain file. */
function readHead(file: string): string {
  const text = readPlainSync(file, 4096);
  if (text === 'missing' || text === 'odd') throw new Error(`${file} is ${text === 'missing' ? 'missing' : 'not a plain file'}: the worktree's git dir is damaged. Resubmit the task to start again.`);
  return text;
}

async function copyIfThere(from: string, to: string): Promise<void> {
  await copyFile(from, to).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}

/**
 * A file the agent's git left, read only when it is a plain file: a link to /dev/zero or a FIFO planted in the task's
 * git dir would otherwise keep the desk reading.
 */
async function readIfThere(file: string): Promise<string | undefined> {
  const info = await lstat(file).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  return readFile(file, 'utf8').catch(() => undefined);
}

const short = (commit: string) => commit.slice(0, 12);
const firstLine = (text: string) => text.trim().split('\n')[0] ?? 'no reason given';

/** The names in a folder, or none when it cannot be listed. */
function listedOrNone(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
