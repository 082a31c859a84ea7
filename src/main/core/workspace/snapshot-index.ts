// The git side of a snapshot: its files checked out (or moved to another commit) with the desk's git runner, and its
// index left as a split index whose stat data matches the files, so `git status` over the snapshot (or an overlay of
// it) trusts every untouched file without reading it, and a task's copy of the index is two hard links.
//
// Racy git: an index entry whose file was modified in the same second as the index was written (`mtime >= the index's
// own mtime`) cannot be trusted, and git then reads the file to compare it. A checkout writes the files and the index
// in the same second, so every entry starts racy. Rewriting the index a second later would make git read every file
// once more; instead, once the clock has passed that second, the index's mtime is set to the start of the next one:
// true, because nothing but the checkout wrote into the snapshot's private temp dir by then. Whatever writes later
// (copy, prepare) is caught by the final refresh, which reads only files whose stat data changed or that are racy.
import { linkSync, renameSync, rmSync } from 'node:fs';
import { copyFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { GitRepo, GitRunner } from '../git/git-runner';

/** Where a snapshot's git state lives: its own git dir (index, shared index, HEAD) over the repository's objects. */
export interface SnapshotGit {
  repo: Required<Pick<GitRepo, 'gitDir' | 'workTree' | 'commonDir'>>;
}

/** The margin past a second boundary before an index may claim it: file systems stamp with a clock a tick behind. */
const CLOCK_MARGIN_MS = 25;

export function snapshotRepo(commonDir: string, dir: string): GitRepo & SnapshotGit['repo'] {
  return { gitDir: join(dir, 'git'), workTree: join(dir, 'tree'), commonDir };
}

/**
 * Writes the git dir's own files: `commondir` (the repository's objects and refs) and a detached HEAD at `commit`,
 * so git accepts it as a git dir and `git status` compares against the commit.
 */
export async function writeSnapshotGitDir(repo: GitRepo & SnapshotGit['repo'], commit: string): Promise<void> {
  await writeFile(join(repo.gitDir, 'commondir'), `${repo.commonDir}\n`);
  await writeFile(join(repo.gitDir, 'HEAD'), `${commit}\n`);
}

/**
 * Checks `commit` out into the empty work tree, writing the index; resolves, once its entries can be trusted, with the
 * time the checkout ended (the last write into the tree).
 */
export async function checkOutCommit(git: GitRunner, repo: GitRepo & SnapshotGit['repo'], commit: string): Promise<number> {
  await writeSnapshotGitDir(repo, commit);
  await git.run(repo, ['read-tree', '--reset', '-u', commit]);
  const ended = Date.now();
  await trustCheckout(repo, ended);
  return ended;
}

/**
 * Moves a snapshot checked out at `from` to `to`: only files that differ are rewritten (`read-tree -m -u`, a two-tree
 * merge against the snapshot's own index). Returns the paths that changed. Throws git's words when git refuses (e.g. an
 * untracked file where the new commit has one): the caller then checks out anew. `ended`: as checkOutCommit's.
 */
export async function moveCheckout(git: GitRunner, repo: GitRepo & SnapshotGit['repo'], from: string, to: string): Promise<{ changedPaths: string[]; ended: number }> {
  const listed = await git.run(repo, ['diff-tree', '-r', '-z', '--name-only', '--no-renames', '--no-commit-id', from, to]);
  await git.run(repo, ['read-tree', '-m', '-u', from, to]);
  const ended = Date.now();
  await writeSnapshotGitDir(repo, to);
  await trustCheckout(repo, ended);
  return { changedPaths: listed.split('\0').filter((path) => path !== ''), ended };
}

/**
 * The final index: refreshed (reading only files written since the checkout), split (`sharedindex.<hash>` holds the
 * entries, `index` the small rest), and written once the clock has passed the last write into the tree, so no entry
 * is racy. Older shared indexes of a moved snapshot are removed. Returns the shared index's file name.
 */
export async function finishIndex(git: GitRunner, repo: GitRepo & SnapshotGit['repo'], lastWriteMs: number): Promise<string> {
  await clockPast(lastWriteMs);
  await git.run(repo, ['update-index', '-q', '--refresh', '--split-index']);
  const shared = basename(await git.run(repo, ['rev-parse', '--shared-index-path']));
  if (!shared.startsWith('sharedindex.')) throw new Error(`git wrote no split index in ${repo.gitDir}`);
  for (const name of await readdir(repo.gitDir)) {
    if (name.startsWith('sharedindex.') && name !== shared) await rm(join(repo.gitDir, name), { force: true });
  }
  return shared;
}

/**
 * Hard-links a snapshot's index (`index` and its shared index) into `gitDir`, where a task's git reads its index: the
 * task's copies cost no blocks, and git's write-then-rename of its own index later leaves the snapshot's untouched.
 * An index already there is replaced. Copied instead where the git dir lies on another file system than the data dir
 * (a repository on another disk): correct, at the cost of a copy.
 */
export async function linkSnapshotIndex(snapshot: { gitDir: string; sharedIndex: string }, gitDir: string): Promise<void> {
  for (const name of [snapshot.sharedIndex, 'index']) {
    const temp = join(gitDir, `${name}.desk-link-${process.pid}`);
    // Blocking: on every layered task's way to its start, a link and a rename take microseconds, where each trip
    // through the thread pool costs a few hundred. The copy where no link can be made (another file system) does not.
    rmSync(temp, { force: true });
    try {
      linkSync(join(snapshot.gitDir, name), temp);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV' && (error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
      await copyFile(join(snapshot.gitDir, name), temp);
    }
    renameSync(temp, join(gitDir, name));
  }
}

/**
 * Once the clock is past the second the checkout ended in, dates the index at the start of the next second: every
 * file checked out is then older than the index, as it would be had git written the index a second later.
 */
async function trustCheckout(repo: SnapshotGit['repo'], endedAtMs: number): Promise<void> {
  const index = join(repo.gitDir, 'index');
  const written = await stat(index);
  const claimed = Math.max(nextSecond(endedAtMs), nextSecond(written.mtimeMs));
  await clockPast(claimed - 1000);
  await utimes(index, written.atime, new Date(claimed));
}

/** Waits until the clock is in a later second than `ms` (plus a margin for file systems' coarse clocks). */
async function clockPast(ms: number): Promise<void> {
  const wait = nextSecond(ms) + CLOCK_MARGIN_MS - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

function nextSecond(ms: number): number {
  return (Math.floor(ms / 1000) + 1) * 1000;
}
