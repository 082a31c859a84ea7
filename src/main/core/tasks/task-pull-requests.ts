// A task's pull request (GitHub) or merge request (GitLab): the desk pushes the task's branch to the repository's
// remote (never forced, no prompts), opens the request on the forge, keeps it on the task, and reads its state, checks
// and feedback again on a refresh and from the poller while it is open, waiting as long as a forge limits the rate.
import type { OpenPullRequest, PullRequest } from '../../../shared/pull-request';
import { deskError, isDeskError } from '../../../shared/desk-error';
import type { RepoConfig } from '../../../shared/repo-config';
import { forgeFailure, type ForgeAccess } from '../forge/forge-access';
import { ForgeError, type ForgeApi } from '../forge/forge-api';
import type { ForgeRepository } from '../forge/forge-remote';
import type { GitService } from '../git/git-service';
import type { TaskPatch, TaskRecord } from '../store/tasks-repo';
import type { AttentionFile } from '../../../shared/task';
import { keepFeedback } from './pull-request-feedback';
import { attentionSection, pullRequestText } from './pull-request-text';

export interface TaskPullRequests {
  /** Pushes the task's branch and opens its request; a task that has one gets it back (`created: false`). */
  openPullRequest(id: string, input: OpenPullRequest): Promise<{ created: boolean; pullRequest: PullRequest }>;
  /** Reads the task's request from its forge again (state, draft, checks, feedback). */
  refreshPullRequest(id: string): Promise<PullRequest>;
  /**
   * Refreshes every open request once; one failing does not stop the others. `retryAt`: a forge limits the rate
   * until then (ms since the epoch), so the poller waits.
   */
  refreshOpenPullRequests(): Promise<{ retryAt?: number }>;
}

export interface TaskPullRequestsDeps {
  gitOf(task: TaskRecord): Pick<GitService, 'push' | 'remoteUrl' | 'branchFor'>;
  /** The repository's settings (`forge.remote`, `forge.hosts`, `forge.autoAddress`…). */
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
  /** After a read of a task's request: a chance to start a turn on its new feedback (`forge.autoAddress`). */
  afterRead?(id: string): Promise<void>;
}

/** The forge of a task's request, as the feedback turns use it too. */
export interface ForgeConnection { remote: string; repository: ForgeRepository; api: ForgeApi; config: RepoConfig }

export interface ForgeLink {
  /** The forge client of the task's repository and the remote it pushes to; refuses while the forge limits the rate. */
  connect(task: TaskRecord): Promise<ForgeConnection>;
  /** Runs a forge call; its refusal becomes the desk's error in the forge's own words (and a rate limit is remembered). */
  call<T>(repository: ForgeRepository, work: () => Promise<T>): Promise<T>;
  /** Reads the task's request again and keeps it (in the task's lock). */
  refresh(task: TaskRecord): Promise<PullRequest>;
}

const DEFAULT_REMOTE = 'origin';

export function createTaskPullRequests(deps: TaskPullRequestsDeps): TaskPullRequests & { link: ForgeLink } {
  const lastFailure = new Map<string, string>();
  /** Until when (ms since the epoch) each forge host limits the rate. */
  const limitedUntil = new Map<string, number>();
  /** Who the token is on each host, asked once (a failed answer is asked again next time). */
  const selves = new Map<string, Promise<string | undefined>>();

  async function connect(task: TaskRecord): Promise<ForgeConnection> {
    const config = await deps.repoConfigOf(task);
    const remote = config.forge?.remote ?? DEFAULT_REMOTE;
    const url = await deps.gitOf(task).remoteUrl(remote);
    if (url === undefined) {
      throw deskError('invalid', 'no_remote', `The repository has no remote named "${remote}". Add it (git remote add ${remote} <url>), or name another in the repository's settings: "forge": {"remote": "<name>"}.`);
    }
    return { remote, config, ...deps.forges.connect(url, config.forge?.hosts ?? {}) };
  }

  async function call<T>(repository: ForgeRepository, work: () => Promise<T>): Promise<T> {
    const until = limitedUntil.get(repository.host) ?? 0;
    const now = deps.now().getTime();
    if (until > now) {
      throw deskError('too_many_requests', 'forge_rate_limited', `${repository.host} limits the rate of requests; the desk asks again after ${new Date(until).toISOString()}.`, { retryAfterSeconds: Math.ceil((until - now) / 1000) });
    }
    try {
      return await work();
    } catch (error) {
      if (error instanceof ForgeError && error.retryAt !== undefined) limitedUntil.set(repository.host, error.retryAt);
      if (error instanceof ForgeError || isDeskError(error)) throw forgeFailure(error) ?? error;
      // A JSON answer of the wrong shape (a proxy's, a broken forge's) breaks the reading, not the desk.
      throw deskError('bad_gateway', 'forge_failed', `${repository.host} answered with something the desk could not read (${error instanceof Error ? error.message : String(error)}).`);
    }
  }

  function selfOn(repository: ForgeRepository, api: ForgeApi): Promise<string | undefined> {
    const key = `${repository.kind}:${repository.host}`;
    let self = selves.get(key);
    if (!self) {
      self = api.whoAmI().catch(() => {
        selves.delete(key);
        return undefined;
      });
      selves.set(key, self);
    }
    return self;
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
    try {
      const { api, repository } = await connect(task);
      const { failedChecks, ...found } = await call(repository, () => api.get(existing.number));
      const comments = await call(repository, () => api.comments(found));
      const feedback = keepFeedback({ comments, failedChecks: failedChecks ?? [] }, existing.feedback, await selfOn(repository, api));
      const { feedbackError: _cleared, ...kept } = existing;
      return keep(task, { ...kept, ...found, forge: existing.forge, checkedAt: deps.now().toISOString(), feedback });
    } catch (error) {
      // The request keeps what was read last; the board shows why it is not newer.
      const message = error instanceof Error ? error.message : String(error);
      if (existing.feedbackError !== message) deps.save(task.id, { pullRequest: { ...existing, feedbackError: message } });
      throw error;
    }
  }

  const afterRead = async (id: string) => {
    try {
      await deps.afterRead?.(id);
    } catch (error) {
      deps.log(deps.mustGet(id), `Could not start a turn on the new feedback: ${error instanceof Error ? error.message : String(error)}`, 'warn');
    }
  };

  return {
    link: { connect, call, refresh: (task) => refresh(task) },

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
        const existing = await call(repository, () => api.findByHead(branch));
        const adopt = existing !== undefined && existing.state === 'open';
        const defaults = pullRequestText(task);
        const body = adopt ? '' : `${input.body ?? defaults.body}${attentionSection(await deps.attentionFiles(task))}`;
        const found = adopt ? existing : await call(repository, () => api.open({
          head: branch, base: input.base ?? task.baseBranch, title: input.title ?? defaults.title, body, draft: input.draft ?? false,
        }));
        const pullRequest: PullRequest = { ...found, forge: repository.kind, checkedAt: deps.now().toISOString() };
        const saved = deps.save(id, { pullRequest });
        deps.log(saved, `${adopt ? 'Found the open' : 'Opened'} ${noun(pullRequest)} #${pullRequest.number}: ${pullRequest.url}`);
        return { created: !adopt, pullRequest };
      });
    },

    async refreshPullRequest(id) {
      const pullRequest = await deps.withTaskLock(id, () => refresh(deps.mustGet(id)));
      await afterRead(id);
      return pullRequest;
    },

    async refreshOpenPullRequests() {
      for (const task of deps.withOpenPullRequests()) {
        try {
          await deps.withTaskLock(task.id, () => refresh(deps.mustGet(task.id)));
          lastFailure.delete(task.id);
          await afterRead(task.id);
        } catch (error) {
          // Said once per cause, not once a minute while the forge stays down.
          const message = error instanceof Error ? error.message : String(error);
          const cause = isDeskError(error, 'forge_rate_limited') ? 'rate limited' : message;
          if (lastFailure.get(task.id) === cause) continue;
          lastFailure.set(task.id, cause);
          deps.log(task, `Could not read the ${task.pullRequest ? noun(task.pullRequest) : 'request'} from its forge: ${message}`, 'warn');
        }
      }
      const now = deps.now().getTime();
      const waits = [...limitedUntil.values()].filter((until) => until > now);
      return waits.length > 0 ? { retryAt: Math.max(...waits) } : {};
    },
  };
}

export function noun(pullRequest: Pick<PullRequest, 'forge'>): string {
  return pullRequest.forge === 'gitlab' ? 'merge request' : 'pull request';
}
