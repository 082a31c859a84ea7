// Stand-ins of GitHub's and GitLab's REST APIs on 127.0.0.1, enough for pull and merge requests and their feedback:
// they keep requests and comments in memory, record every call (to check headers and bodies), can be told to refuse or
// garble the next calls, and let a test merge a request or comment on it as a person on the forge would.
import { execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { feedbackRoute, type StoredComment } from './forge-stand-in-feedback';

/** The token the stand-ins accept; any other is refused with 401. */
export const FORGE_TEST_TOKEN = 'forge-token-123';
/** Who the token is on the stand-ins: comments by this user are the desk's own. */
export const FORGE_DESK_USER = 'desk-bot';

export interface ForgeCall { method: string; path: string; headers: IncomingMessage['headers']; body: unknown }

export interface StoredRequest {
  number: number; head: string; base: string; title: string; body: string; draft: boolean;
  state: 'open' | 'closed' | 'merged'; sha: string;
}

export interface ForgeStandIn {
  /** The API base to give the desk (GITHUB_API_URL / GITLAB_API_URL). */
  apiBase: string;
  calls: ForgeCall[];
  requests: StoredRequest[];
  comments: StoredComment[];
  /** The next call is answered with this status and the forge's error body. */
  refuseNext(status: number, message: string): void;
  /** The next `count` calls are answered with exactly this (a rate limit's headers, a body that is not JSON). */
  answerNext(answer: { status: number; body: string; headers?: Record<string, string> }, count?: number): void;
  /** A person (or, with `author: FORGE_DESK_USER`, the desk) comments on request `number`; returns the forge's id. */
  comment(number: number, comment: Omit<StoredComment, 'id' | 'number' | 'createdAt' | 'discussion'> & { replyTo?: number }): number;
  /** GitLab: the head pipeline's failed jobs (when its status is `failed`). */
  setFailedJobs(jobs: Array<{ name: string; stage: string; failure_reason: string }>): void;
  merge(number: number): void;
  /** GitHub: the check runs on every head; GitLab: the head pipeline's status. */
  setChecks(checks: StandInCheckRun[] | string): void;
  close(): Promise<void>;
}

export interface StandInCheckRun { status: string; conclusion: string | null; name?: string; output?: { title?: string; summary?: string } }

/**
 * `gitDir`: a bare repository the desk pushes to (or where it will be, once known); a request's head commit is then its
 * branch's tip there.
 */
export async function startForgeStandIn(kind: 'github' | 'gitlab', repository: string, options: { gitDir?: string | (() => string | undefined) } = {}): Promise<ForgeStandIn> {
  const calls: ForgeCall[] = [];
  const requests: StoredRequest[] = [];
  const comments: StoredComment[] = [];
  let refusal: { status: number; message: string } | undefined;
  let raw: { answer: { status: number; body: string; headers?: Record<string, string> }; left: number } | undefined;
  let checks: StandInCheckRun[] | string = [];
  let failedJobs: Array<{ name: string; stage: string; failure_reason: string }> = [];
  const shaOf = (request: StoredRequest): string => {
    const gitDir = typeof options.gitDir === 'function' ? options.gitDir() : options.gitDir;
    if (!gitDir) return request.sha;
    try {
      return execFileSync('git', ['--git-dir', gitDir, 'rev-parse', `refs/heads/${request.head}`], { encoding: 'utf8' }).trim();
    } catch {
      return request.sha;
    }
  };
  const base = kind === 'github' ? '' : '/api/v4';
  const repoPath = kind === 'github' ? `/repos/${repository}` : `/projects/${encodeURIComponent(repository)}`;
  const webOf = (number: number) => kind === 'github' ? `https://github.com/${repository}/pull/${number}` : `https://gitlab.com/${repository}/-/merge_requests/${number}`;

  const asGitHub = (request: StoredRequest) => ({
    number: request.number, html_url: webOf(request.number), state: request.state === 'open' ? 'open' : 'closed', draft: request.draft,
    merged: request.state === 'merged', merged_at: request.state === 'merged' ? '2026-01-01T00:00:00Z' : null,
    title: request.title, body: request.body, head: { ref: request.head, sha: shaOf(request) }, base: { ref: request.base },
  });
  const asGitLab = (request: StoredRequest) => ({
    iid: request.number, web_url: webOf(request.number), state: request.state === 'open' ? 'opened' : request.state,
    draft: request.draft, title: request.title, description: request.body, source_branch: request.head, target_branch: request.base,
    sha: shaOf(request), head_pipeline: typeof checks === 'string' && checks !== '' ? { id: 70 + request.number, status: checks, sha: shaOf(request) } : null,
  });
  const shape = (request: StoredRequest) => (kind === 'github' ? asGitHub(request) : asGitLab(request));

  function answer(response: ServerResponse, status: number, body: unknown): void {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  }
  const refuse = (response: ServerResponse, status: number, message: string) => answer(response, status, kind === 'github'
    ? { message, documentation_url: 'https://docs.github.com/rest' }
    : { message: status === 409 ? [message] : message });

  function route(call: ForgeCall, url: URL, response: ServerResponse): void {
    const path = url.pathname.startsWith(base) ? url.pathname.slice(base.length) : url.pathname;
    const auth = call.headers.authorization;
    if (auth !== `Bearer ${FORGE_TEST_TOKEN}`) return refuse(response, 401, kind === 'github' ? 'Bad credentials' : '401 Unauthorized');
    if (call.method === 'GET' && path === '/user') return answer(response, 200, kind === 'github' ? { login: FORGE_DESK_USER, id: 1 } : { username: FORGE_DESK_USER, id: 1 });
    // The project id arrives %-encoded (group%2Fname); compare it that way.
    const rawPath = url.pathname.slice(base.length);
    if (!rawPath.startsWith(repoPath)) return refuse(response, 404, 'Not Found');
    const rest = rawPath.slice(repoPath.length);
    const collection = kind === 'github' ? '/pulls' : '/merge_requests';
    if (call.method === 'POST' && rest === collection) {
      const body = call.body as Record<string, unknown>;
      const head = String(kind === 'github' ? body.head : body.source_branch);
      const target = String(kind === 'github' ? body.base : body.target_branch);
      if (requests.some((existing) => existing.head === head && existing.state === 'open')) {
        return kind === 'github'
          ? answer(response, 422, { message: 'Validation Failed', errors: [{ resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${repository.split('/')[0]}:${head}.` }] })
          : refuse(response, 409, 'Another open merge request already exists for this source branch: !1');
      }
      const title = String(body.title);
      const created: StoredRequest = {
        number: requests.length + 1, head, base: target, title, body: String(kind === 'github' ? body.body : body.description),
        draft: kind === 'github' ? body.draft === true : /^draft:/i.test(title), state: 'open', sha: 'a'.repeat(40),
      };
      requests.push(created);
      return answer(response, 201, shape(created));
    }
    if (call.method === 'GET' && rest === collection) {
      const head = kind === 'github' ? url.searchParams.get('head')?.split(':')[1] : url.searchParams.get('source_branch');
      return answer(response, 200, requests.filter((request) => request.head === head).map(shape));
    }
    const one = new RegExp(`^${collection}/(\\d+)$`).exec(rest);
    if (call.method === 'GET' && one) {
      const found = requests.find((request) => request.number === Number(one[1]));
      return found ? answer(response, 200, shape(found)) : refuse(response, 404, 'Not Found');
    }
    const checkRuns = /^\/commits\/([0-9a-f]+)\/check-runs$/.exec(rest);
    if (kind === 'github' && call.method === 'GET' && checkRuns) {
      const runs = (typeof checks === 'string' ? [] : checks).map((run, index) => ({
        id: index + 1, name: run.name ?? `check ${index + 1}`, head_sha: checkRuns[1], html_url: `https://github.com/${repository}/runs/${index + 1}`, ...run,
      }));
      return answer(response, 200, { total_count: runs.length, check_runs: runs });
    }
    if (kind === 'gitlab' && call.method === 'GET' && /^\/pipelines\/\d+\/jobs$/.test(rest)) {
      return answer(response, 200, failedJobs.map((job, index) => ({ id: 900 + index, status: 'failed', web_url: `https://gitlab.com/${repository}/-/jobs/${900 + index}`, allow_failure: false, ...job })));
    }
    const fed = feedbackRoute({ kind, repository, requests, comments, webOf, method: call.method, rest, body: call.body });
    if (fed) return answer(response, fed.status, fed.body);
    refuse(response, 404, `Not Found: ${call.method} ${path}`);
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const url = new URL(request.url ?? '/', 'http://stand-in');
      const call: ForgeCall = { method: request.method ?? 'GET', path: `${url.pathname}${url.search}`, headers: request.headers, body: text ? JSON.parse(text) : undefined };
      calls.push(call);
      if (raw) {
        const { answer: next } = raw;
        if (--raw.left <= 0) raw = undefined;
        response.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
        return response.end(next.body);
      }
      if (refusal) {
        const { status, message } = refusal;
        refusal = undefined;
        return refuse(response, status, message);
      }
      route(call, url, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiBase: `http://127.0.0.1:${port}${base}`,
    calls,
    requests,
    comments,
    refuseNext: (status, message) => { refusal = { status, message }; },
    answerNext: (next, count = 1) => { raw = { answer: next, left: count }; },
    comment(number, comment) {
      const id = 1000 + comments.length;
      const root = comment.replyTo === undefined ? undefined : comments.find((other) => other.id === comment.replyTo);
      comments.push({ ...comment, id, number, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, comments.length)).toISOString(), discussion: root?.discussion ?? `d${id.toString(16)}` });
      return id;
    },
    setFailedJobs: (jobs) => { failedJobs = jobs; },
    merge: (number) => {
      const found = requests.find((request) => request.number === number);
      if (!found) throw new Error(`No request ${number} on the stand-in`);
      found.state = 'merged';
    },
    setChecks: (next) => { checks = next; },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

