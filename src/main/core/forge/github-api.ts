// GitHub's REST API for one repository's pull requests (also GitHub Enterprise, through GITHUB_API_URL).
import type { PullRequestChecks } from '../../../shared/pull-request';
import { forgeRequest, type FetchLike, type ForgeApi, type ForgeHttpOptions, type ForgePullRequest } from './forge-api';

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

interface GitHubCheckRuns { total_count: number; check_runs: Array<{ status: string; conclusion: string | null }> }

export function githubApi(options: { fetch: FetchLike; apiBase: string; token: string; repository: string }): ForgeApi {
  const http: ForgeHttpOptions = {
    fetch: options.fetch,
    apiBase: options.apiBase.replace(/\/+$/, ''),
    forgeName: 'GitHub',
    headers: { authorization: `Bearer ${options.token}`, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', 'user-agent': 'assignment-desk' },
  };
  const [owner] = options.repository.split('/');
  const repo = `/repos/${options.repository.split('/').map(encodeURIComponent).join('/')}`;

  const checksOf = async (sha: string): Promise<PullRequestChecks> => {
    const runs = await forgeRequest<GitHubCheckRuns>(http, 'GET', `${repo}/commits/${encodeURIComponent(sha)}/check-runs?per_page=100`);
    return summarizeCheckRuns(runs.check_runs);
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
      return { ...fromGitHub(pull), checks: await checksOf(pull.head.sha) };
    },
  };
}

function fromGitHub(pull: GitHubPull): ForgePullRequest {
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
