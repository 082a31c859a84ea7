// A task's pull request (GitHub) or merge request (GitLab): the desk pushes the task's branch to the repository's
// remote (never forced, no prompts), opens the request on the forge, keeps it on the task, and reads its state again
// on a refresh and from the poller while it is open.
import type { OpenPullRequest, PullRequest } from '../../../shared/pull-request';
import { deskError } from '../../../shared/desk-error';
import type { RepoConfig } from '../../../shared/repo-config';
import { forgeFailure, type ForgeAccess } from '../forge/forge-access';
import type { GitService } from '../git/git-service';
import type { TaskPatch, TaskRecord } from '../store/tasks-repo';
import type { AttentionFile } from '../../../shared/task';
import { attentionSection, pullRequestText } from './pull-request-text';

export interface TaskPullRequests {
  /** Pushes the task's branch and opens its request; a task that has one gets it back (`created: false`). */
  openPullRequest(id: string, input: OpenPullRequest): Promise<{ created: boolean; pullRequest: PullRequest }>;
  /** Reads the task's request from its forge again (state, draft, checks). */
  refreshPullRequest(id: string): Promise<PullRequest>;
  /** Refreshes every open request once; one failing does not stop the others. */
  refreshOpenPullRequests(): Promise<void>;
}

export interface TaskPullRequestsDeps {
  gitOf(task: TaskRecord): Pick<GitService, 'push' | 'remoteUrl' | 'branchFor'>;
  /** The repository's settings (`forge.remote`, `forge.hosts`). */
  repoConfigOf(task: TaskRecord): Promise<RepoConfig>;
  forges: ForgeAccess;
  mustGet(id: string): TaskRecord;
  /** Every task with an open request, for the poller. */
  withOpenPullRequests(): TaskRecord[];
  save(id: string, patch: TaskPatch): TaskRecord;
  log(task: TaskRecord, text: string, level?: 'info' | 'warn' | 'error'): void;
  withTaskLock<T>(id: string, work: () => Promise<T>): Promise<T>;
  now(): Date;
  /** The files of the task's diff that need attention (docs/security.md), listed at the end of the request's body. */
  attentionFiles(task: TaskRecord): Promise<AttentionFile[]>;
}

const DEFAULT_REMOTE = 'origin';

export function createTaskPullRequests(deps: TaskPullRequestsDeps): TaskPullRequests {
  const lastFailure = new Map<string, string>();
  /** The forge client of the task's repository and the remote it pushes to. */
  async function connect(task: TaskRecord) {
    const config = await deps.repoConfigOf(task);
    const remote = config.forge?.remote ?? DEFAULT_REMOTE;
    const url = await deps.gitOf(task).remoteUrl(remote);
    if (url === undefined) {
      throw deskError('invalid', 'no_remote', `The repository has no remote named "${remote}". Add it (git remote add ${remote} <url>), or name another in the repository's settings: "forge": {"remote": "<name>"}.`);
    }
    return { remote, ...deps.forges.connect(url, config.forge?.hosts ?? {}) };
  }

  /** Keeps what the forge said now, and logs a change of state (merged, closed) once. */
  function keep(task: TaskRecord, pullRequest: PullRequest): PullRequest {
    const before = task.pullRequest?.state;
    const saved = deps.save(task.id, { pullRequest });
    if (before !== undefined && before !== pullRequest.state) deps.log(saved, `The ${noun(pullRequest)} ${pullRequest.url} is ${pullRequest.state} now.`);
    return pullRequest;
  }

  async function refresh(task: TaskRecord): Promise<PullRequest> {
    const existing = task.pullRequest;
    if (!existing) throw deskError('conflict', 'no_pull_request', `Task ${task.id} has no pull request yet; open one first (POST /api/tasks/${task.id}/pull-request).`);
    const { api } = await connect(task);
    const found = await forgeCall(() => api.get(existing.number));
    return keep(task, { ...found, forge: existing.forge, checkedAt: deps.now().toISOString() });
  }

  return {
    openPullRequest(id, input) {
      return deps.withTaskLock(id, async () => {
        const task = deps.mustGet(id);
        if (task.pullRequest) return { created: false, pullRequest: await refresh(task) };
        if (task.status !== 'completed' || !task.commit) {
          throw deskError('conflict', 'task_not_finished', `Task ${id} is ${task.status}${task.commit ? '' : ' and has no commit'}; a pull request opens from a completed task's commit.`);
        }
        const { remote, repository, api } = await connect(task);
        const branch = task.branch ?? deps.gitOf(task).branchFor(id);
        const pushed = await deps.gitOf(task).push(remote, branch);
        deps.log(task, pushed.message, pushed.ok ? 'info' : 'error');
        if (!pushed.ok) throw deskError('conflict', 'push_refused', `${pushed.message}. Nothing was opened on ${repository.host}.`);

        // A request the person opened by hand (or an earlier desk) for this branch is adopted, not duplicated.
        const existing = await forgeCall(() => api.findByHead(branch));
        const adopt = existing !== undefined && existing.state === 'open';
        const defaults = pullRequestText(task);
        const body = adopt ? '' : `${input.body ?? defaults.body}${attentionSection(await deps.attentionFiles(task))}`;
        const found = adopt ? existing : await forgeCall(() => api.open({
          head: branch, base: input.base ?? task.baseBranch, title: input.title ?? defaults.title, body, draft: input.draft ?? false,
        }));
        const pullRequest: PullRequest = { ...found, forge: repository.kind, checkedAt: deps.now().toISOString() };
        const saved = deps.save(id, { pullRequest });
        deps.log(saved, `${adopt ? 'Found the open' : 'Opened'} ${noun(pullRequest)} #${pullRequest.number}: ${pullRequest.url}`);
        return { created: !adopt, pullRequest };
      });
    },

    refreshPullRequest: (id) => deps.withTaskLock(id, () => refresh(deps.mustGet(id))),

    async refreshOpenPullRequests() {
      for (const task of deps.withOpenPullRequests()) {
        try {
          await deps.withTaskLock(task.id, () => refresh(deps.mustGet(task.id)));
          lastFailure.delete(task.id);
        } catch (error) {
          // Said once per cause, not once a minute while the forge stays down.
          const message = error instanceof Error ? error.message : String(error);
          if (lastFailure.get(task.id) === message) continue;
          lastFailure.set(task.id, message);
          deps.log(task, `Could not read the ${task.pullRequest ? noun(task.pullRequest) : 'request'} from its forge: ${message}`, 'warn');
        }
      }
    },
  };
}

function noun(pullRequest: Pick<PullRequest, 'forge'>): string {
  return pullRequest.forge === 'gitlab' ? 'merge request' : 'pull request';
}

/** Runs a forge call; its refusal becomes the desk's error in the forge's own words. */
async function forgeCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw forgeFailure(error) ?? error;
  }
}
