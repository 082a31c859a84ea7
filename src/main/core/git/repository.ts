// Finds the git repository a person points the app at, and refuses anything that is not one. What
// it finds (top level, git dir, common dir) is what every later command names outright.
import { realpathSync, statSync } from 'node:fs';
import type { GitRepo } from './git-runner';
import { gitFailed, notAGitRepository } from './git-errors';
import { discoverRepository, type RepositoryDiscovery } from './repository-discovery';

export interface Repository {
  /** The top level of the work tree (symlinks resolved). */
  root: string;
  /** The checkout's own git dir (usually `<root>/.git`). */
  gitDir: string;
  /** The git dir shared by all worktrees (the same as `gitDir` unless the checkout is a linked worktree). */
  commonDir: string;
  /**
   * HEAD as it was when the repository was opened: a snapshot, so start-up need not ask git again which branch is
   * checked out and whether it has a commit. Absent when HEAD had no commit yet.
   */
  headAtOpen?: { commit: string; branch?: string };
}

/**
 * The repository holding `path`. `started`: a discovery the host began before the core loaded; its answer is used when
 * it was asked for this very path, so git's answer need not be waited for again.
 */
export async function openRepository(path: string, started?: RepositoryDiscovery): Promise<Repository> {
  // Synchronous: microseconds each, where the first trip through the thread pool (its threads made on first use) held
  // the start several milliseconds.
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory() !== true) throw notAGitRepository(path, 'no such directory');
  // One git process in the usual case (HEAD on a branch with commits); a second only when HEAD has none yet.
  const withHead = await (started?.path === path ? started.withHead : discoverRepository(path, { head: true }));
  const result = withHead.exitCode === 0 ? withHead : await discoverRepository(path);
  if (result.notStarted !== undefined) throw gitFailed(['rev-parse'], undefined, `git could not be started (${result.notStarted}); install git and make sure it is on the desk's PATH`);
  const [top, gitDir, commonDir, commit, headRef] = result.stdout.split('\n').map((line) => line.trim());
  // Inside .git or a bare repository git answers without a top level; neither has a work tree.
  if (result.exitCode !== 0 || !top || !gitDir || !commonDir) {
    throw notAGitRepository(path, result.stderr.trim() || undefined);
  }
  const branch = headRef?.startsWith('refs/heads/') ? headRef.slice('refs/heads/'.length) : undefined;
  return {
    root: realpathSync.native(top), gitDir: realpathSync.native(gitDir), commonDir: realpathSync.native(commonDir),
    ...(result === withHead && commit && { headAtOpen: { commit, ...(branch && { branch }) } }),
  };
}

/** The person's checkout as a command target. */
export function checkoutOf(repository: Repository): GitRepo {
  return { gitDir: repository.gitDir, workTree: repository.root, commonDir: repository.commonDir };
}
