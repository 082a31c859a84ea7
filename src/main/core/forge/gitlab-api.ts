// GitLab's REST API (v4) for one project's merge requests (also self-managed GitLab, through GITLAB_API_URL).
import type { PullRequestChecks, PullRequestState } from '../../../shared/pull-request';
import { ForgeError, forgeRequest, type FetchLike, type ForgeApi, type ForgeHttpOptions, type ForgePullRequest } from './forge-api';
import { gitlabComments, gitlabFailedChecks, type GitLabDiscussion, type GitLabJob } from './gitlab-feedback';

export const GITLAB_API_DEFAULT = 'https://gitlab.com/api/v4';

interface GitLabMergeRequest {
  iid: number;
  web_url: string;
  state: 'opened' | 'closed' | 'merged' | 'locked';
  draft?: boolean;
  work_in_progress?: boolean;
  source_branch: string;
  target_branch: string;
  sha?: string | null;
  head_pipeline?: { id?: number; status: string; sha?: string } | null;
}

export function gitlabApi(options: { fetch: FetchLike; apiBase: string; token: string; repository: string }): ForgeApi {
  const http: ForgeHttpOptions = {
    fetch: options.fetch,
    apiBase: options.apiBase.replace(/\/+$/, ''),
    forgeName: 'GitLab',
    // Personal, project and OAuth tokens all work as a bearer token.
    headers: { authorization: `Bearer ${options.token}`, 'user-agent': 'assignment-desk' },
  };
  const project = `/projects/${encodeURIComponent(options.repository)}`;
  return {
    async open(request) {
      // GitLab marks a draft by its title.
      const title = request.draft && !/^(draft:|\[draft\])/i.test(request.title) ? `Draft: ${request.title}` : request.title;
      const created = await forgeRequest<GitLabMergeRequest>(http, 'POST', `${project}/merge_requests`, {
        source_branch: request.head, target_branch: request.base, title, description: request.body, remove_source_branch: false,
      });
      return fromGitLab(created);
    },
    async findByHead(head) {
      const found = await forgeRequest<GitLabMergeRequest[]>(http, 'GET', `${project}/merge_requests?state=all&per_page=10&order_by=created_at&sort=desc&source_branch=${encodeURIComponent(head)}`);
      const newest = [...found].sort((a, b) => b.iid - a.iid)[0];
      return newest && fromGitLab(newest);
    },
    async get(number) {
      const request = await forgeRequest<GitLabMergeRequest>(http, 'GET', `${project}/merge_requests/${number}`);
      const pipeline = request.head_pipeline;
      const jobs = pipeline?.status === 'failed' && pipeline.id !== undefined
        ? await forgeRequest<GitLabJob[]>(http, 'GET', `${project}/pipelines/${pipeline.id}/jobs?scope[]=failed&per_page=100`)
        : [];
      return {
        ...fromGitLab(request), checks: pipelineChecks(pipeline?.status), ...(request.sha && { headCommit: request.sha }),
        failedChecks: gitlabFailedChecks(Array.isArray(jobs) ? jobs : [], pipeline?.sha ?? request.sha ?? undefined),
      };
    },
    async comments({ number, url }) {
      const discussions = await forgeRequest<GitLabDiscussion[]>(http, 'GET', `${project}/merge_requests/${number}/discussions?per_page=100`);
      if (!Array.isArray(discussions)) throw new ForgeError(502, 'GitLab answered a request for discussions with something that is not a list');
      return gitlabComments(discussions, url);
    },
    async reply(number, comment, body) {
      if (!comment.thread) throw new ForgeError(422, `GitLab note ${comment.id} has no discussion to reply in`);
      await forgeRequest(http, 'POST', `${project}/merge_requests/${number}/discussions/${encodeURIComponent(comment.thread)}/notes`, { body });
    },
    async whoAmI() {
      const user = await forgeRequest<{ username?: unknown }>(http, 'GET', '/user');
      return typeof user.username === 'string' ? user.username : undefined;
    },
  };
}

function fromGitLab(request: GitLabMergeRequest): ForgePullRequest {
  if (!Number.isInteger(request?.iid) || typeof request.web_url !== 'string' || typeof request.source_branch !== 'string' || typeof request.target_branch !== 'string') {
    throw new ForgeError(502, 'GitLab answered with something that is not a merge request');
  }
  const state: PullRequestState = request.state === 'opened' ? 'open' : request.state === 'merged' ? 'merged' : 'closed';
  return {
    number: request.iid, url: request.web_url, state, draft: request.draft === true || request.work_in_progress === true,
    head: request.source_branch, base: request.target_branch,
  };
}

/** The head pipeline's status as checks: one pipeline, passed, failed or still going. */
export function pipelineChecks(status: string | undefined): PullRequestChecks {
  if (status === undefined) return { state: 'none', total: 0, passed: 0, failed: 0 };
  if (status === 'success') return { state: 'success', total: 1, passed: 1, failed: 0 };
  if (status === 'failed' || status === 'canceled') return { state: 'failure', total: 1, passed: 0, failed: 1 };
  return { state: 'pending', total: 1, passed: 0, failed: 0 };
}
