// The desk's side of a cluster task's git exchange: a small bare repository per task that borrows the
// repository's objects, shows only the task's branch, serves clone/fetch and push over smart HTTP, and
// accepts a push only as a fast-forward of that branch from the start commit. What lands is brought
// into the task's worktree as files and index, for the desk to commit as it does for a local agent.
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { deskError } from '../../../../shared/desk-error';
import { createGitRunner, type GitRepo } from '../../git/git-runner';
import { discoverRepository } from '../../git/repository-discovery';
import { runGit } from './exchange-git';
import { HOOK_BRANCH_VARIABLE, HOOK_REPOSITORY_VARIABLE, HOOK_START_VARIABLE, PRE_RECEIVE_HOOK } from './pre-receive-hook';
import { serveSmartHttp } from './smart-http';

export interface TaskExchangeRequest {
  /** The desk's data dir; the exchange is made at `<dataDir>/exchange/<random>.git`. */
  dataDir: string;
  taskId: string;
  /** The repository's common git dir (absolute), e.g. /repo/.git. */
  gitCommonDir: string;
  /** The task branch, e.g. "desk/task-1": the only ref shown and the only one a push may update. */
  branch: string;
  /** The full sha the task starts from. */
  startCommit: string;
}

export interface TaskExchange {
  /** The bare repository. */
  readonly path: string;
  /**
   * Serves one smart-HTTP request whose path below the task's git root is `subpath`: "info/refs"
   * (GET, ?service=git-upload-pack|git-receive-pack), "git-upload-pack" (POST), "git-receive-pack"
   * (POST). Anything else: 404/405 with a short text body.
   */
  serve(request: IncomingMessage, response: ServerResponse, subpath: string): Promise<void>;
  /** The commit now at refs/heads/<branch> in the exchange (startCommit until a push lands). */
  head(): Promise<string>;
  /**
   * Fetches head() into the repository and makes `worktree`'s index and files that tree (HEAD
   * untouched), so the desk's usual `git add -A; git commit` commits exactly what was pushed.
   * No-op when head() is startCommit.
   */
  bringInto(worktree: string): Promise<void>;
  /** Removes the bare repository. */
  close(): Promise<void>;
}

// Settings of the exchange repository itself. Pushes are judged by the hook too; these make git refuse
// the same things on its own and keep anything else from being offered or kept.
const EXCHANGE_CONFIG = `[receive]
\tdenyNonFastForwards = true
\tdenyDeletes = true
\tfsckObjects = true
\tadvertisePushOptions = false
\tautogc = false
[receive "fsck"]
\thasDotgit = error
[uploadpack]
\tallowAnySHA1InWant = false
\tallowTipSHA1InWant = false
\tallowReachableSHA1InWant = false
\tallowFilter = false
[gc]
\tauto = 0
[core]
\t# receive-pack would otherwise advertise the tips of every branch of the borrowed repository as ".have".
\talternateRefsPrefixes = refs/desk-exchange/nothing/
`;

/** Makes the exchange for one task: a bare repository with one branch at the start commit. */
export async function openTaskExchange(request: TaskExchangeRequest): Promise<TaskExchange> {
  const { branch, startCommit } = request;
  if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(startCommit)) {
    throw deskError('invalid', 'invalid_start_commit', `The start commit of task ${request.taskId} must be a full sha, not ${startCommit}`, { taskId: request.taskId });
  }
  const branchRef = `refs/heads/${branch}`;
  await runGit(['check-ref-format', branchRef]).catch(() => {
    throw deskError('invalid', 'invalid_branch_name', `${branch} is not a branch name git accepts`, { branch });
  });

  const path = join(resolve(request.dataDir), 'exchange', `${randomBytes(12).toString('hex')}.git`);
  const commonObjects = join(resolve(request.gitCommonDir), 'objects');
  await mkdir(join(request.dataDir, 'exchange'), { recursive: true });
  try {
    // No templates: no sample hooks, nothing the desk did not write.
    await runGit(['init', '--bare', '--quiet', '--template=', `--object-format=${startCommit.length === 64 ? 'sha256' : 'sha1'}`, path]);
    await mkdir(join(path, 'objects', 'info'), { recursive: true });
    await writeFile(join(path, 'objects', 'info', 'alternates'), `${commonObjects}\n`);
    await appendFile(join(path, 'config'), EXCHANGE_CONFIG);
    await mkdir(join(path, 'hooks'), { recursive: true });
    await writeFile(join(path, 'hooks', 'pre-receive'), PRE_RECEIVE_HOOK, { mode: 0o755 });
    // update-ref refuses a sha the borrowed objects do not hold.
    await runGit(['--git-dir', path, 'update-ref', branchRef, startCommit]);
    await runGit(['--git-dir', path, 'symbolic-ref', 'HEAD', branchRef]);
  } catch (error) {
    await rm(path, { recursive: true, force: true });
    throw error;
  }

  // Hooks come only from the exchange's own hooks dir, whatever a config says.
  const receiveConfig = [`core.hooksPath=${join(path, 'hooks')}`];
  const hookEnv = { [HOOK_BRANCH_VARIABLE]: branch, [HOOK_START_VARIABLE]: startCommit, [HOOK_REPOSITORY_VARIABLE]: resolve(request.gitCommonDir) };
  const head = () => runGit(['--git-dir', path, 'rev-parse', '--verify', '--end-of-options', `${branchRef}^{commit}`]);

  return {
    path,
    serve: (request, response, subpath) => serveSmartHttp(request, response, subpath, {
      repository: path,
      config: receiveConfig,
      env: hookEnv,
    }),
    head,
    async bringInto(worktree) {
      const commit = await head();
      if (commit === startCommit) return;
      const repo = await worktreeRepo(worktree, request.gitCommonDir);
      // An empty hooks dir: neither fetch nor read-tree runs a hook of the repository's.
      const noHooks = join(path, 'desk-no-hooks');
      await mkdir(noHooks, { recursive: true });
      const git = createGitRunner({ hooksDir: noHooks });
      // The objects land in the shared repository; no ref there moves (FETCH_HEAD aside).
      await git.run(repo, ['fetch', '--quiet', '--no-tags', '--no-recurse-submodules', path, branchRef]);
      // --reset -u: the index and files become the pushed tree, files it no longer has are removed; HEAD stays.
      await git.run(repo, ['read-tree', '--reset', '-u', commit]);
    },
    close: () => rm(path, { recursive: true, force: true }),
  };
}

/** The worktree as the git runner names it, checked to belong to the repository whose objects the exchange borrows. */
async function worktreeRepo(worktree: string, gitCommonDir: string): Promise<GitRepo> {
  const found = await discoverRepository(worktree);
  const [topLevel, gitDir, commonDir] = found.stdout.split(/\r?\n/);
  if (found.exitCode !== 0 || !topLevel || !gitDir || !commonDir) {
    throw deskError('invalid', 'not_a_git_repository', `${worktree} is not a git worktree: ${found.notStarted ?? found.stderr.trim()}`, { path: worktree });
  }
  if (realpathSync(commonDir) !== realpathSync(gitCommonDir) || realpathSync(topLevel) !== realpathSync(worktree)) {
    throw deskError('invalid', 'foreign_worktree', `${worktree} is not a worktree of the repository at ${gitCommonDir}`, { path: worktree });
  }
  return { gitDir, workTree: topLevel, commonDir };
}
