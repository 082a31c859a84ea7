// The repositories one desk works in: each with its own git service (worktrees and records under the data dir,
// keyed by the repository), its worktree setup and its base branch. The first is the default, the one `/`
// speaks for; the list is kept in the database so a restart opens them all again.
import { createHash } from 'node:crypto';
import type { SpareProcesses } from '../host/spare-processes';
import { join } from 'node:path';
import type { RepoConfig } from '../../../shared/repo-config';
import { createGitService, type GitService } from '../git/git-service';
import { openRepository, type Repository } from '../git/repository';
import type { DeskReposRepo } from '../store/desk-repos-repo';
import { createWorkspaceSetup, type WorkspaceSetup } from '../workspace/workspace-setup';
import { createBaseSnapshots, type BaseSnapshots } from '../workspace/base-snapshots';
import type { SnapshotStore } from '../workspace/snapshot-store';
import type { LayerMode } from '../workspace/layer-choice';
import type { TaskLayers } from '../sandbox/task-layers';
import { defaultRepositoryFixed, repositoryBusy, repositoryNameTaken, repositoryOpen, unknownRepository } from './repo-errors';
import { freeName, nameFromFolder } from './repo-names';

export interface OpenRepo {
  name: string;
  /** The top level of its work tree (symlinks resolved). */
  root: string;
  repository: Repository;
  git: GitService;
  workspace: WorkspaceSetup;
  /** Tasks submitted to it start from this branch (its checked-out branch when it was opened). */
  baseBranch: string;
  isDefault: boolean;
  /** The setup the desk's settings give it, used when it has no `.desk/config.json`. */
  settingsSetup?: RepoConfig;
  /** Snapshots of its base for worktrees that are layers; absent on a desk without layers. */
  snapshots?: BaseSnapshots;
}

export interface RepoOpener {
  dataDir: string;
  deskId: string;
  now(): Date;
  /** Worktrees as layers over snapshots of the base (issue 41); without, every worktree is a checkout. */
  layers?: { taskLayers: TaskLayers; snapshotStore: Pick<SnapshotStore, 'snapshot'>; mode: LayerMode };
  /** Processes waiting to become the desk's git scripts (../host/spare-processes.ts). */
  spares?: Pick<SpareProcesses, 'take'>;
}

/**
 * Opens the repository holding `path`: refuses what is not a git work tree (`not_a_git_repository`) or has no
 * usable base branch. `baseBranch` defaults to its checked-out branch.
 */
export async function openRepo(opener: RepoOpener, request: { path: string; name?: string; baseBranch?: string; repository?: Repository; isDefault?: boolean }): Promise<OpenRepo> {
  const repository = request.repository ?? await openRepository(request.path);
  const root = repository.root;
  const git = createGitService({
    repoRoot: root,
    repository,
    // Worktrees of different repositories sharing a data dir must not collide.
    worktreesDir: join(opener.dataDir, 'worktrees', shortHash(root)),
    hooksDir: join(opener.dataDir, 'no-hooks'),
    stateDir: join(opener.dataDir, 'git', shortHash(root)),
    deskId: opener.deskId,
    now: opener.now,
    ...(opener.layers && { taskLayers: opener.layers.taskLayers }),
    ...(opener.spares && { spares: opener.spares }),
  });
  // HEAD as found at open answers both questions for its own branch, without two more git processes.
  const head = repository.headAtOpen;
  const baseBranch = request.baseBranch ?? head?.branch ?? await git.currentBranch();
  if (head?.branch !== baseBranch) await git.assertUsableBase(baseBranch);
  const repo: OpenRepo = {
    name: request.name ?? nameFromFolder(root), root, repository, git, baseBranch, isDefault: request.isDefault ?? false,
    workspace: createWorkspaceSetup({ repoRoot: root, fallback: () => repo.settingsSetup }),
  };
  const { layers } = opener;
  if (layers) {
    repo.snapshots = createBaseSnapshots({
      store: layers.snapshotStore, refusal: () => layers.taskLayers.refusal(), commonDir: repository.commonDir, checkout: root,
      checkoutIndex: join(repository.gitDir, 'index'), mode: layers.mode,
      config: () => repo.workspace.config(),
    });
  }
  return repo;
}

export interface RepoSet {
  readonly default: OpenRepo;
  /** In the order they were opened, the default first. */
  list(): OpenRepo[];
  find(name: string): OpenRepo | undefined;
  /** Throws `unknown_repository`. */
  get(name: string): OpenRepo;
  /** Opens another repository and keeps it open across restarts; refuses one open already or a name in use. */
  add(request: { path: string; name?: string }): Promise<OpenRepo>;
  /** Closes a repository (nothing on disk changes); refuses the default and one whose tasks have not all finished. */
  remove(name: string, unfinishedTasks: readonly string[]): void;
  /** The setup used for a repository without `.desk/config.json`; undefined clears it. */
  setSettingsSetup(name: string, setup: RepoConfig | undefined): OpenRepo;
}

export interface RepoSetDeps {
  opener: RepoOpener;
  /** The default repository, opened (and checked) before anything else. */
  first: OpenRepo;
  store: DeskReposRepo;
  log(message: string): void;
}

/**
 * The desk's repositories: the default, then those kept from earlier runs, then `more` (paths from the command
 * line) not open yet. A kept repository that no longer opens is left out with a logged reason and stays kept.
 */
export async function createRepoSet(deps: RepoSetDeps, more: readonly string[] = []): Promise<RepoSet> {
  const { store, opener } = deps;
  const kept = store.list();
  const first = deps.first;
  const keptFirst = kept.find((row) => row.path === first.root);
  if (keptFirst) {
    first.name = keptFirst.name;
    if (keptFirst.setup) first.settingsSetup = keptFirst.setup;
  } else {
    store.put({ name: first.name, path: first.root });
  }
  const repos: OpenRepo[] = [first];
  const taken = () => new Set(repos.map((repo) => repo.name));

  for (const row of kept) {
    if (row.path === first.root || repos.some((repo) => repo.name === row.name)) continue;
    try {
      const repo = await openRepo(opener, { path: row.path, name: row.name });
      if (row.setup) repo.settingsSetup = row.setup;
      repos.push(repo);
    } catch (error) {
      deps.log(`Repository "${row.name}" (${row.path}) did not open and is left out: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async function add(request: { path: string; name?: string }): Promise<OpenRepo> {
    const repository = await openRepository(request.path);
    const open = repos.find((repo) => repo.root === repository.root);
    if (open) throw repositoryOpen(open.name, open.root);
    const named = request.name !== undefined ? repos.find((repo) => repo.name === request.name) : undefined;
    if (named) throw repositoryNameTaken(named.name, named.root);
    const name = request.name ?? freeName(nameFromFolder(repository.root), taken());
    const repo = await openRepo(opener, { path: repository.root, name, repository });
    repos.push(repo);
    store.put({ name: repo.name, path: repo.root });
    return repo;
  }

  for (const path of more) {
    const repository = await openRepository(path);
    if (!repos.some((repo) => repo.root === repository.root)) await add({ path: repository.root });
  }

  const find = (name: string) => repos.find((repo) => repo.name === name);
  const get = (name: string): OpenRepo => {
    const repo = find(name);
    if (!repo) throw unknownRepository(name, repos.map((r) => r.name));
    return repo;
  };

  return {
    default: first,
    list: () => [...repos],
    find,
    get,
    add,
    remove(name, unfinishedTasks) {
      const repo = get(name);
      if (repo.isDefault) throw defaultRepositoryFixed(name);
      if (unfinishedTasks.length > 0) throw repositoryBusy(name, unfinishedTasks);
      repos.splice(repos.indexOf(repo), 1);
      store.remove(name);
    },
    setSettingsSetup(name, setup) {
      const repo = get(name);
      if (setup) repo.settingsSetup = setup;
      else delete repo.settingsSetup;
      store.setSetup(name, setup);
      return repo;
    },
  };
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}
