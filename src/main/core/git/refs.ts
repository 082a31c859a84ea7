// Small questions and updates about commits and refs, shared by the service and retirement.
import { emptyRepository, gitFailed, unknownBranch } from './git-errors';
import type { GitRepo, GitRunner } from './git-runner';

/** The commit `ref` points at, or undefined when it does not exist (or points at no commit). */
export async function resolveCommit(git: GitRunner, repo: GitRepo, ref: string): Promise<string | undefined> {
  const result = await git.exec(repo, ['rev-parse', '--quiet', '--verify', '--end-of-options', `${ref}^{commit}`]);
  return result.exitCode === 0 ? result.stdout.trim() : undefined;
}

/** The commit a task based on `branch` starts from; `empty_repository` for an unborn one HEAD names, else `unknown_branch`. */
export async function baseCommitOf(git: GitRunner, repo: GitRepo, branch: string): Promise<string> {
  const commit = await resolveCommit(git, repo, `refs/heads/${branch}`);
  if (commit) return commit;
  // An unborn branch (no commits yet) is still what HEAD names in a fresh repository.
  const head = await git.exec(repo, ['symbolic-ref', '--quiet', 'HEAD']);
  if (head.exitCode === 0 && head.stdout.trim() === `refs/heads/${branch}`) throw emptyRepository(branch);
  throw unknownBranch(branch);
}

/** true when `ancestor` is `descendant` or one of its ancestors. */
export async function isAncestorCommit(git: GitRunner, repo: GitRepo, ancestor: string, descendant: string): Promise<boolean> {
  const args = ['merge-base', '--is-ancestor', '--end-of-options', ancestor, descendant];
  const result = await git.exec(repo, args);
  // Exit 1 is git's "no"; anything else (e.g. 128 for an unknown name) is a real failure.
  if (result.exitCode === 0) return true;
  if (result.exitCode === 1) return false;
  throw gitFailed(args, result.exitCode, result.stderr);
}

/**
 * Points a new ref at `commit`, never moving an existing one: when `ref` is taken (two retirements
 * in the same millisecond) it tries `ref-2`, `ref-3`, … Returns the ref it created.
 */
export async function createRef(git: GitRunner, repo: GitRepo, ref: string, commit: string): Promise<string> {
  for (let attempt = 1; attempt <= 100; attempt++) {
    const name = attempt === 1 ? ref : `${ref}-${attempt}`;
    // An empty old value tells update-ref the ref must not exist yet.
    const result = await git.exec(repo, ['update-ref', name, commit, '']);
    if (result.exitCode === 0) return name;
    if (!(await resolveCommit(git, repo, name))) throw gitFailed(['update-ref', name, commit], result.exitCode, result.stderr);
  }
  throw gitFailed(['update-ref', ref, commit], undefined, 'too many archive refs with the same name');
}
