// Which repository a task works in: its git service, worktree setup and base branch. A desk of one repository
// passes none and every task uses the service's own; a desk of several names each task's by `repo`.
import type { BaseSnapshots } from '../workspace/base-snapshots';
import type { GitService } from '../git/git-service';
import type { TaskSandbox } from '../sandbox/task-sandbox';
import type { TaskRecord } from '../store/tasks-repo';
import type { WorkspaceSetup } from '../workspace/workspace-setup';

export interface TaskRepo {
  /** Absent in a desk that does not name its repositories. */
  readonly name?: string;
  readonly git: GitService;
  readonly workspace: WorkspaceSetup;
  readonly baseBranch: string;
  /** The git dir every worktree of the repository shares, which the sandbox shows the agent. */
  readonly gitCommonDir?: string;
  /** Snapshots of its base for worktrees that are layers (../workspace/base-snapshots.ts); without, every worktree is a checkout. */
  readonly snapshots?: BaseSnapshots;
}

export interface TaskRepos {
  /** The repository named `name` (the default when undefined); throws `unknown_repository` for one not open. */
  of(name: string | undefined): TaskRepo;
}

/**
 * What a task needs of an open repository, read afresh (its base branch can change). Listed field by field: a spread
 * of the whole repository cost a few microseconds of every submission on Node 20 (a hidden class of its own each time).
 */
export function taskRepoOf(repo: { name: string; git: GitService; workspace: WorkspaceSetup; baseBranch: string; repository: { commonDir: string }; snapshots?: BaseSnapshots | undefined }): TaskRepo {
  return { name: repo.name, git: repo.git, workspace: repo.workspace, baseBranch: repo.baseBranch, gitCommonDir: repo.repository.commonDir, ...(repo.snapshots && { snapshots: repo.snapshots }) };
}

/** Every task in the one repository the service was given. */
export function singleRepo(repo: Omit<TaskRepo, 'name' | 'gitCommonDir'>): TaskRepos {
  return { of: () => repo };
}

/**
 * The dependencies whose branches are merged into the task's worktree: those in its own repository. A dependency
 * in another repository only decides when the task starts.
 */
export function dependenciesToMerge(task: TaskRecord, lookUp: (id: string) => TaskRecord | undefined): string[] {
  return task.dependencies.filter((id) => lookUp(id)?.repo === task.repo);
}

/**
 * The sandbox as a task of `repo` needs it: confined with that repository's git dir, and a layered worktree's index
 * brought to the desk's last commit before anything runs there.
 */
export function sandboxFor<S extends Pick<TaskSandbox, 'isolate' | 'confines'>>(sandbox: S, repo: Pick<TaskRepo, 'git' | 'gitCommonDir'>): Pick<TaskSandbox, 'isolate' | 'confines'> {
  const { gitCommonDir } = repo;
  return {
    confines: (agent) => sandbox.confines(agent),
    isolate: async (request) => {
      await repo.git.readyIndex(request.worktree);
      return sandbox.isolate(gitCommonDir === undefined ? request : { ...request, gitCommonDir });
    },
  };
}

/**
 * A task submitted again into another repository: its earlier worktree and branch there are retired (archived,
 * never lost), since the new repository's git knows nothing of them. A repository closed since keeps them as they are.
 */
export async function retireInOtherRepo(previous: TaskRecord | undefined, repo: string | undefined, repos: TaskRepos): Promise<void> {
  if (!previous?.worktreePath || previous.repo === repo) return;
  await Promise.resolve().then(() => repos.of(previous.repo).git.retire(previous.id)).catch(() => undefined);
}
