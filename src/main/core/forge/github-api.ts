// GitHub's REST API for one repository's pull requests (also GitHub Enterprise, through GITHUB_API_URL).
import type { PullRequestChecks } from '../../../shared/pull-request';
import { ForgeError, forgeRequest, type FetchLike, type ForgeApi, type ForgeHttpOptions, type ForgePullRequest } from './forge-api';
import {
  githubComments, githubFailedChecks, githubThreadRoot, type GitHubCheckRun, type GitHubIssueComment, type GitHubReview, type GitHubReviewComment,
} from './github-feedback';

export const GITHUB_API_DEFAULT = 'https://api.github.com';

interface GitHubPull {
  number: number;
  html_url: string;
  state: 'open' | 'closed';
  draft?: boolean;
  merged?: boolean;
  merged_at?: string | null;
  head: { ref: string; sha: string };
  base: { ref: string };
}

interface GitHubCheckRuns { total_count: number; check_runs: GitHubCheckRun[] }

/** The most of each kind of comment the desk reads (one page); a request with more shows the first ones. */
const PAGE = 'per_page=100';

export function githubApi(options: { fetch: FetchLike; apiBase: string; token: string; repository: string }): ForgeApi {
  const http: ForgeHttpOptions = {
    fetch: options.fetch,
    apiBase: options.apiBase.replace(/\/+$/, ''),
    forgeName: 'GitHub',
    headers: { authorization: `Bearer ${options.token}`, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', 'user-agent': 'assignment-desk' },
  };
  const [owner] = options.repository.split('/');
  const repo = `/repos/${options.repository.split('/').map(encodeURIComponent).join('/')}`;

  const checksOf = async (sha: string): Promise<Pick<ForgePullRequest, 'checks' | 'failedChecks'>> => {
    const runs = await forgeRequest<GitHubCheckRuns>(http, 'GET', `${repo}/commits/${encodeURIComponent(sha)}/check-runs?${PAGE}`);
    return { checks: summarizeCheckRuns(runs.check_runs), failedChecks: githubFailedChecks(runs.check_runs, sha) };
  };

  return {
    async open(request) {
      const pull = await forgeRequest<GitHubPull>(http, 'POST', `${repo}/pulls`, {
        title: request.title, body: request.body, head: request.head, base: request.base, draft: request.draft,
      });
      return fromGitHub(pull);
    },
    async findByHead(head) {
      const pulls = await forgeRequest<GitHubPull[]>(http, 'GET', `${repo}/pulls?state=all&per_page=10&head=${encodeURIComponent(`${owner}:${head}`)}`);
      const newest = [...pulls].sort((a, b) => b.number - a.number)[0];
      return newest && fromGitHub(newest);
    },
    async get(number) {
      const pull = await forgeRequest<GitHubPull>(http, 'GET', `${repo}/pulls/${number}`);
      return { ...fromGitHub(pull), headCommit: pull.head.sha, ...await checksOf(pull.head.sha) };
    },
    async comments({ number }) {
      const [onDiff, reviews, general] = await Promise.all([
        forgeRequest<GitHubReviewComment[]>(http, 'GET', `${repo}/pulls/${number}/comments?${PAGE}`),
        forgeRequest<GitHubReview[]>(http, 'GET', `${repo}/pulls/${number}/reviews?${PAGE}`),
        forgeRequest<GitHubIssueComment[]>(http, 'GET', `${repo}/issues/${number}/comments?${PAGE}`),
      ]);
      if (![onDiff, reviews, general].every(Array.isArray)) throw new ForgeError(502, 'GitHub answered a request for comments with something that is not a list');
      return githubComments(onDiff, reviews, general);
    },
    async reply(number, comment, body) {
      const root = githubThreadRoot(comment);
      // A review comment's thread takes replies; a review or a conversation comment is answered in the conversation.
      if (root !== undefined) await forgeRequest(http, 'POST', `${repo}/pulls/${number}/comments/${root}/replies`, { body });
      else await forgeRequest(http, 'POST', `${repo}/issues/${number}/comments`, { body: `${quoted(comment.body)}\n\n${body}` });
    },
    async whoAmI() {
      const user = await forgeRequest<{ login?: unknown }>(http, 'GET', '/user');
      return typeof user.login === 'string' ? user.login : undefined;
    },
  };
}

/** The first lines of a comment as a Markdown quote, so a reply in the conversation says what it answers. */
export function quoted(body: string): string {
  const lines = body.trim().split('\n');
  return [...lines.slice(0, 3), ...(lines.length > 3 ? ['…'] : [])].map((line) => `> ${line}`).join('\n');
}

function fromGitHub(pull: GitHubPull): ForgePullRequest {
  if (!Number.isInteger(pull?.number) || typeof pull.html_url !== 'string' || typeof pull.head?.ref !== 'string' || typeof pull.base?.ref !== 'string') {
    throw new ForgeError(502, 'GitHub answered with something that is not a pull request');
  }
  const merged = pull.merged === true || (pull.merged_at !== undefined && pull.merged_at !== null);
  return {
    number: pull.number, url: pull.html_url, state: merged ? 'merged' : pull.state, draft: pull.draft === true,
    head: pull.head.ref, base: pull.base.ref,
  };
}

/** Check runs summed up: any failed run fails, any unfinished one keeps it pending, none at all is `none`. */
export function summarizeCheckRuns(runs: ReadonlyArray<{ status: string; conclusion: string | null }>): PullRequestChecks {
  const failed = runs.filter((run) => run.status === 'completed' && ['failure', 'timed_out', 'cancelled', 'action_required', 'startup_failure'].includes(run.conclusion ?? '')).length;
  const passed = runs.filter((run) => run.status === 'completed' && ['success', 'neutral', 'skipped'].includes(run.conclusion ?? '')).length;
  const state = runs.length === 0 ? 'none' : failed > 0 ? 'failure' : passed === runs.length ? 'success' : 'pending';
  return { state, total: runs.length, passed, failed };
}
