// The git side of running a task: a worktree per task outside the person's checkout, dependency
// branches merged in, commits at the end of each turn, and retirement that never loses work. Every
// command names the repository and worktree from the desk's own records, and a worktree whose link
// to the repository was changed gets no commit.
import { existsSync } from 'node:fs';
import type { SpareProcesses } from '../host/spare-processes';
import { mkdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { branchNameFor, worktreeDirNameFor } from './branch-names';
import { commitIfChanged, stageAndCommit } from './commit-all';
import { leaveOutLocalFiles, localFilesWritten, type LocalFile } from './vendor-local-files';
import { layerTreeOf } from './layered-commit';
import { indexBehindSince } from './layer-index';
import { createLayeredWorktrees } from './layered-worktrees';
import { readIdentity } from './commit-identity';
import { branchTaken, gitFailed, unknownBranch } from './git-errors';
import { createGitRunner, type GitRepo } from './git-runner';
import { mergeDependencies } from './merge-dependencies';
import { pushBranch, type PushResult } from './push-branch';
import { abortMerge, compareWithBase, updateFromBase, type BaseUpdateOutcome, type UpdateStrategy } from './base-update';
import { createMutex } from './repo-mutex';
import { branchInFiles } from './branch-files';
import { baseCommitOf, isAncestorCommit, resolveCommit } from './refs';
import { mergeIntoBase, type MergeResult } from './merge-into-base';
import { checkoutOf, openRepository, type Repository } from './repository';
import { retireTask } from './retire-task';
import { layerUse, type LayerUse } from './layer-use';
import { readLayerUse } from './read-layer-use';
import { liveDiff } from './live-diff';
import { changedFiles, taskDiff, type ChangedFile } from './task-diff';
import { createDiffSummaries } from './diff-summaries';
import { recordedWorktree } from './worktree-guard';
import { createWorktreeRecords } from './worktree-records';
import { expectedWorktreeGitDir } from './expected-git-dir';
import { registerWorktreeByFiles, type RegisteredWorktree } from './worktree-by-files';
import { pendingCheckout } from './pending-checkout';
import type { PreparedWorktree, PrepareWorktreeRequest } from './prepared-worktree';
import { rememberedOnPath } from '../host/find-on-path';
import type { TaskDiff } from '../../../shared/review';
import type { ChangeCount } from '../../../shared/task';
import type { RetireContext } from './retire-task';
import type { TaskLayers } from '../sandbox/task-layers';
import { settledAll } from './settled-all';

export interface GitService {
  /** The repository's checked-out branch (the default base branch). */
  currentBranch(): Promise<string>;
  /** Throws `unknown_branch` or `empty_repository` when a task could not start from `branch`. */
  assertUsableBase(branch: string): Promise<void>;
  /**
   * A fresh worktree for the task's branch: from `baseBranch`, then each dependency branch merged
   * in order (--no-ff, no editor). Any previous worktree/branch of the same task is retired first.
   * On a merge conflict the merge is aborted, the half-made worktree retired, and
   * `merge_conflict` thrown. `baseCommit` is the base branch's commit the task started from.
   */
  prepareWorktree(request: PrepareWorktreeRequest): Promise<PreparedWorktree>;
  /**
   * Stage everything (including deletions and new files) and commit, even when nothing changed. Returns
   * the full sha. Throws `worktree_tampered`, committing nothing, when the worktree's `.git` file
   * or its git dir's links (or HEAD) no longer say what the desk made.
   */
  commitAll(worktreePath: string, message: string): Promise<string>;
  /** Like commitAll, but when no file changed it commits nothing and returns undefined (an agent's turn that did nothing). */
  commitChanges(worktreePath: string, message: string): Promise<string | undefined>;
  /**
   * The vendor-local files of the worktree (an agent's own settings and notes, vendor-local-files.ts) that the next commit
   * leaves out, for the activity; any the index holds are taken out of it. Throws `worktree_tampered` like commitAll.
   */
  leaveOutLocalFiles(worktreePath: string): Promise<LocalFile[]>;
  /**
   * Brings a layered worktree's index to its branch when the desk's commits left it behind (./layer-index.ts): called
   * before anything runs in the worktree (a turn, a check, a dev server). Nothing to do for a checkout.
   */
  readyIndex(worktreePath: string): Promise<void>;
  /**
   * Retire a task's worktree and branch without losing anything: uncommitted work is committed as
   * a snapshot, the tip is kept under `refs/desk/archive/<desk id>/<dir>/<UTC time>`, then the worktree
   * is removed and the branch deleted if this desk made it. Returns the archive ref, or nothing when
   * there was nothing.
   */
  retire(taskId: string): Promise<{ archiveRef?: string }>;
  /**
   * Whether the task layer shown at `target` (made for `taskId`, read from its layer.json) is still that task's
   * worktree here (./layer-use.ts), decided under the repository's lock with `then` run before it is let go: no
   * worktree of the task is made or retired between the facts read and what `then` does. Throws when a fact cannot
   * be read.
   */
  judgeLayer(layer: { taskId: string; target: string }, then: (use: LayerUse) => Promise<void>): Promise<LayerUse>;
  /** true when `ancestor` is an ancestor of `descendant` (commits or refs). */
  isAncestor(ancestor: string, descendant: string): Promise<boolean>;
  /** The branch this desk gives `taskId`: `desk/<desk id>/<slug>-<hash8>`. */
  branchFor(taskId: string): string;
  worktreePathFor(taskId: string): string;
  /** The files `head` changed against `base`, with texts to show. */
  diff(base: string, head: string): Promise<TaskDiff>;
  /** What `head` changed against `base` (full commit ids), as the attention list reads it: names, and texts `textsFor` asks for. */
  changedFiles(base: string, head: string, textsFor: (path: string) => boolean): Promise<ChangedFile[]>;
  /** diff's totals alone (files, lines added and removed): one git run, no file read. */
  diffStat(base: string, head: string): Promise<ChangeCount>;
  /** What the task's worktree holds now (committed or not) against `base`; throws `worktree_tampered` like commitAll. */
  liveDiff(worktreePath: string, base: string): Promise<TaskDiff>;
  /**
   * Merges the task's branch (`branch` as recorded on the task, else `branchFor(taskId)`) into
   * `baseBranch` (approval); throws `dirty_checkout`, or `base_conflict` naming the files when the base moved on.
   */
  mergeIntoBase(request: { taskId: string; branch?: string; baseBranch: string; message: string }): Promise<MergeResult>;
  /** Commits on `baseBranch` that `branch` lacks (`behind`) and its own (`ahead`). */
  compareWithBase(branch: string, baseBranch: string): Promise<{ behind: number; ahead: number }>;
  /** Merges or rebases `baseBranch` into the task's worktree (see base-update.ts); throws `update_refused`, `worktree_tampered`. */
  updateFromBase(request: { worktreePath: string; branch: string; baseBranch: string; strategy: UpdateStrategy }): Promise<BaseUpdateOutcome>;
  /** Gives up a merge from the base waiting in the task's worktree. */
  abortUpdate(worktreePath: string): Promise<void>;
  /** Pushes `branch` to the configured `remote`, never forced, no prompts, bounded in time; a refusal is a result, not a throw. */
  push(remote: string, branch: string): Promise<PushResult>;
  /** The fetch URL of a configured remote, or undefined when the repository has no such remote. */
  remoteUrl(remote: string): Promise<string | undefined>;
}

export interface GitServiceOptions {
  /** Top level of the person's repository (see openRepository). */
  repoRoot: string;
  /** Where task worktrees live, outside the repository so its `git status` stays clean. */
  worktreesDir: string;
  /** An empty directory used as core.hooksPath; created when missing. */
  hooksDir: string;
  /**
   * A directory in the desk's data dir, out of an agent's reach: the records of the branches and
   * worktrees this desk made, and the empty file its git reads as global config.
   */
  stateDir: string;
  /** The repository at `repoRoot` as openRepository found it, when the caller has just asked; otherwise found again. */
  repository?: Repository;
  /** This desk's id (see loadDeskId): part of every branch and archive ref it names. */
  deskId: string;
  /** Clock for archive ref names; tests may pin it. */
  now?: () => Date;
  /** Worktrees as layers over snapshots of their base (../sandbox/task-layers.ts); without, every worktree is a checkout. */
  taskLayers?: TaskLayers;
  /** Processes waiting to become the desk's git scripts, such as a layer's commit (../host/spare-processes.ts). */
  spares?: Pick<SpareProcesses, 'take'>;
}

export function createGitService(options: GitServiceOptions): GitService {
  const repoRoot = resolve(options.repoRoot);
  const worktreesDir = resolve(options.worktreesDir);
  const hooksDir = resolve(options.hooksDir);
  const stateDir = resolve(options.stateDir);
  const { deskId } = options;
  const now = options.now ?? (() => new Date());
  const globalConfig = join(stateDir, 'empty-gitconfig');
  const git = createGitRunner({ hooksDir, globalConfig, ...(options.spares && { spares: options.spares }) });
  const records = createWorktreeRecords(join(stateDir, 'worktrees'));
  // Where git and env are, for the launchers that check new worktrees out (./pending-checkout.ts).
  const programs = rememberedOnPath();
  const repoLock = createMutex();
  const layered = createLayeredWorktrees({ git, taskLayers: options.taskLayers, programs, scratchDir: stateDir });

  // Two steps, each made once: what every command needs (the dirs, the empty global config, the
  // repository), then what only work on worktrees needs (the person's identity: two more git processes,
  // which the desk's start-up checks need not wait for).
  let base: Promise<{ repository: Repository; realWorktreesDir: string }> | undefined;
  let setup: Promise<RetireContext> | undefined;
  const retryLater = <T>(promise: Promise<T>, reset: () => void): Promise<T> => promise.catch((error: unknown) => {
    reset(); // let a later call retry, e.g. once the disk has room again
    throw error;
  });
  const prepared = () => {
    base ??= retryLater((async () => {
      await mkdir(hooksDir, { recursive: true });
      await mkdir(worktreesDir, { recursive: true });
      await mkdir(stateDir, { recursive: true });
      // Empty on purpose: the person's global settings stay out of the desk's git (their identity is read apart).
      // Left untouched when it already is, so its timestamp lets the runner keep its driver look-ups.
      if ((await stat(globalConfig).catch(() => undefined))?.size !== 0) await writeFile(globalConfig, '');
      const [repository, realWorktreesDir] = await Promise.all([options.repository ?? openRepository(repoRoot), realpath(worktreesDir)]);
      return { repository, realWorktreesDir };
    })(), () => { base = undefined; });
    return base;
  };
  const ready = (): Promise<RetireContext> => {
    setup ??= retryLater((async () => {
      const [{ repository, realWorktreesDir }, identity] = await Promise.all([prepared(), readIdentity(repoRoot)]);
      const layers = options.taskLayers && { open: options.taskLayers.open, has: options.taskLayers.has, remove: options.taskLayers.remove, scratchDir: stateDir };
      return { git, repository, deskId, records, identity, worktreesDir, realWorktreesDir, now, ...(layers && { layers }) };
    })(), () => { setup = undefined; });
    return setup;
  };
  const checkout = async (): Promise<GitRepo> => checkoutOf((await prepared()).repository);
  const summaries = createDiffSummaries(git, checkout);

  const worktreePathFor = (taskId: string): string => join(worktreesDir, worktreeDirNameFor(taskId));
  const branchFor = (taskId: string): string => branchNameFor(deskId, taskId);

  const usableBaseCommit = async (branch: string): Promise<string> => baseCommitOf(git, await checkout(), branch);
  const retire = async (taskId: string): Promise<{ archiveRef?: string }> => {
    const context = await ready();
    return repoLock.run(() => retireTask(context, taskId));
  };

  const intactWorktree = (repository: Repository, path: string): Promise<GitRepo> => recordedWorktree(records, repository.commonDir, path);

  return {
    async currentBranch() {
      const head = await git.exec(await checkout(), ['symbolic-ref', '--quiet', '--short', 'HEAD']);
      if (head.exitCode !== 0) throw gitFailed(['symbolic-ref', 'HEAD'], head.exitCode, head.stderr || 'HEAD is detached: check out a branch to use as the base');
      return head.stdout.trim();
    },

    async assertUsableBase(branch) {
      await usableBaseCommit(branch);
    },

    async prepareWorktree({ taskId, baseBranch, dependencyBranches, deferCheckout = false, snapshot, mountLayer = false }) {
      const context = await ready();
      const repo = checkoutOf(context.repository);
      // The questions below only read refs: asked at once, each a git process of its own.
      const [baseCommit, missing] = await Promise.all([
        // Read from the ref files where they are plain (./branch-files.ts): one git process fewer per task.
        branchInFiles(context.repository.commonDir, baseBranch).then((known) => (known?.kind === 'found' ? known.commit : usableBaseCommit(baseBranch))),
        Promise.all(dependencyBranches.map(async (dependency) => (await resolveCommit(git, repo, `refs/heads/${dependency}`)) ? undefined : dependency)),
      ]);
      const unknown = missing.find((dependency) => dependency !== undefined);
      if (unknown !== undefined) throw unknownBranch(unknown);
      const branch = branchFor(taskId);
      const path = worktreePathFor(taskId);
      const commonDir = context.repository.commonDir;
      // A layer needs a snapshot of the very commit the base is on, and nothing merged in.
      const layers = options.taskLayers;
      const layerBase = layers && snapshot?.commit === baseCommit && dependencyBranches.length === 0 ? snapshot : undefined;
      const { worktree, byFiles } = await repoLock.run(async (): Promise<{ worktree: GitRepo; byFiles?: RegisteredWorktree }> => {
        // A task this desk never made a worktree for, with nothing at its path, has nothing to retire;
        // should git still know a worktree there (its directory deleted by hand), `worktree add`
        // refuses and the full retirement below clears it.
        const fresh = !(await records.get(taskId)) && !existsSync(path) && !existsSync(join(context.realWorktreesDir, worktreeDirNameFor(taskId)));
        if (!fresh) await retireTask(context, taskId);
        // A branch of this name that the desk has no record of is someone else's: never replaced. Asked before the
        // add, not after a failed one: an add that failed part way (a full disk) leaves the branch it just made.
        const known = await branchInFiles(commonDir, branch);
        if (known ? known.kind === 'found' : await resolveCommit(git, repo, `refs/heads/${branch}`)) throw branchTaken(branch);
        // Recorded before it exists, so a crash right after `worktree add` still leaves it ours; with the git dir git
        // names it after (./expected-git-dir.ts), so the record is written once, not again after the add.
        const expected = expectedWorktreeGitDir(commonDir, path);
        await records.put({ taskId, branch, path, gitDir: expected });
        // Start from the commit resolved above, so every dependency merges onto the same base.
        // In the plain case the desk registers the worktree itself (./worktree-by-files.ts) and git fills it below,
        // outside the lock: one git process, and the next task's worktree need not wait for this one's checkout. Not on
        // Windows, where git writes its paths with forward slashes and a drive letter the desk would have to match.
        const byFiles = process.platform === 'win32' ? undefined : registerWorktreeByFiles({ commonDir, path: join(context.realWorktreesDir, basename(path)), gitDir: expected, branch, commit: baseCommit });
        if (byFiles) return { worktree: { gitDir: expected, workTree: path, commonDir }, byFiles };
        // Without --force, git refuses a branch that appeared meanwhile instead of moving it.
        const add = () => git.exec(repo, ['worktree', 'add', '-b', branch, '--end-of-options', path, baseCommit]);
        let added = await add();
        if (added.exitCode !== 0 && fresh && !(await resolveCommit(git, repo, `refs/heads/${branch}`))) {
          await records.remove(taskId);
          await retireTask(context, taskId);
          await records.put({ taskId, branch, path, gitDir: expected });
          added = await add();
        }
        if (added.exitCode !== 0) {
          await records.remove(taskId);
          throw gitFailed(['worktree', 'add'], added.exitCode, added.stderr);
        }
        // The link git has just written, before any agent ran there, is what every later command names.
        const gitDir = (await readFile(join(path, '.git'), 'utf8')).trim().replace(/^gitdir:\s*/, '');
        if (gitDir !== expected) await records.put({ taskId, branch, path, gitDir });
        return { worktree: { gitDir, workTree: path, commonDir } };
      });
      if (byFiles && layerBase && layers) {
        try {
          // No checkout: the snapshot is the worktree's files, its index the worktree's; the task writes to its layer.
          // The layer first: its holder (a few ms to start and mount) is on its way as soon as the layer is there, and
          // the sandbox awaits it. The lease (behind the snapshots' lock) and the index (copied where no link can be
          // made) side by side with it; the steps on small files are blocking calls, microseconds each.
          const made = layers.create({ taskId, base: baseCommit, lower: layerBase.tree, target: path, seed: { '.git': byFiles.gitLink } });
          if (mountLayer) void made.then(() => layers.open(path)).catch(() => undefined);
          await settledAll([layerBase.lease(), layerBase.linkIndexInto(byFiles.repo.gitDir), made]);
          return { path, branch, baseCommit, layered: true };
        } catch (error) {
          // The layer goes with its holder and the task's lease on the snapshot; the registration and its record after.
          await layers.remove(path).catch(() => undefined);
          byFiles.undo();
          await records.remove(taskId);
          throw error;
        }
      }
      if (byFiles) {
        const checkout = pendingCheckout(git, byFiles, () => records.remove(taskId), programs);
        // Merges need the files; without any, the checkout can wait for whoever needs the files first.
        if (deferCheckout && dependencyBranches.length === 0) return { path, branch, baseCommit, checkout };
        await checkout.now();
      }
      try {
        // Merges touch only this worktree's index and branch, so they run outside the lock.
        await mergeDependencies(git, worktree, branch, dependencyBranches, context.identity);
      } catch (error) {
        // The merge's own error is the one worth reporting; should this cleanup fail too, the
        // next prepare or retire of the task starts by retiring again.
        await retire(taskId).catch(() => undefined);
        throw error;
      }
      return { path, branch, baseCommit };
    },

    async commitAll(worktreePath, message) {
      const context = await ready();
      const worktree = await intactWorktree(context.repository, resolve(worktreePath));
      const layer = await layered.at(resolve(worktreePath), worktree);
      if (layer) return await layered.commit(layer, message, context.identity, true) ?? '';
      return stageAndCommit(git, worktree, message, context.identity);
    },

    async commitChanges(worktreePath, message) {
      const context = await ready();
      const worktree = await intactWorktree(context.repository, resolve(worktreePath));
      const layer = await layered.at(resolve(worktreePath), worktree);
      if (layer) return layered.commit(layer, message, context.identity);
      return commitIfChanged(git, worktree, message, context.identity, summaries.seed);
    },

    async readyIndex(worktreePath) {
      const path = resolve(worktreePath);
      // Not mounted for this: the index is synced from the git dir alone, and the run about to start mounts the layer
      // beside its other steps (../sandbox/task-sandbox.ts). The usual case costs two small file reads.
      const layerDir = await options.taskLayers?.dirOf(path);
      if (layerDir === undefined || await indexBehindSince(layerDir) === undefined) return;
      const worktree = await intactWorktree((await ready()).repository, path);
      await layered.syncIndex(worktree, layerDir);
    },

    async leaveOutLocalFiles(worktreePath) {
      const path = resolve(worktreePath);
      // A layer's commit never takes them (./layer-tree.ts): those the task wrote are the ones left out.
      const layer = await options.taskLayers?.open(path);
      if (layer) return localFilesWritten(layer.upperDir);
      const worktree = async () => ({ ...await intactWorktree((await ready()).repository, path), workTree: path });
      return leaveOutLocalFiles(git, worktree, path);
    },

    retire,

    async judgeLayer(layer, then) {
      const { repository } = await prepared();
      return repoLock.run(async () => {
        const use = layerUse(layer.target, await readLayerUse(records, repository.commonDir, layer));
        await then(use);
        return use;
      });
    },

    async isAncestor(ancestor, descendant) {
      return isAncestorCommit(git, await checkout(), ancestor, descendant);
    },

    branchFor,
    worktreePathFor,

    diff: async (base, head) => taskDiff(git, await checkout(), base, head),
    changedFiles: async (base, head, textsFor) => changedFiles(git, await checkout(), (await summaries.read(base, head)).entries, base, head, textsFor),
    diffStat: async (base, head) => (await summaries.read(base, head)).count,

    async liveDiff(worktreePath, base) {
      const context = await ready();
      const worktree = await intactWorktree(context.repository, resolve(worktreePath));
      const layer = await layered.at(resolve(worktreePath), worktree);
      if (layer) return { ...(await taskDiff(git, worktree, base, await layerTreeOf(git, layer))), live: true };
      // The scratch index lives in the desk's state dir, out of the agent's reach.
      return liveDiff(git, worktree, base, stateDir);
    },

    async mergeIntoBase({ taskId, branch, baseBranch, message }) {
      const context = await ready();
      return repoLock.run(() => mergeIntoBase(git, {
        repository: context.repository, scratchDir: context.worktreesDir, baseBranch,
        taskBranch: branch ?? branchFor(taskId), message, identity: context.identity,
      }));
    },

    compareWithBase: async (branch, baseBranch) => compareWithBase(git, await checkout(), branch, baseBranch),

    async updateFromBase({ worktreePath, branch, baseBranch, strategy }) {
      const context = await ready();
      const worktree = await intactWorktree(context.repository, resolve(worktreePath));
      return updateFromBase(await layered.gitWithFiles(resolve(worktreePath), worktree), worktree, { branch, baseBranch, strategy, identity: context.identity });
    },

    push: async (remote, branch) => pushBranch(git, await checkout(), remote, branch),

    async remoteUrl(remote) {
      // `--get` exits 1 when the key is unset: no such remote.
      const result = await git.exec(await checkout(), ['config', '--get', `remote.${remote}.url`]);
      return result.exitCode === 0 ? result.stdout.trim() || undefined : undefined;
    },

    async abortUpdate(worktreePath) {
      const context = await ready();
      const worktree = await intactWorktree(context.repository, resolve(worktreePath));
      await abortMerge(await layered.gitWithFiles(resolve(worktreePath), worktree), worktree);
    },
  };
}
