// Stand-ins of GitHub's and GitLab's REST APIs on 127.0.0.1, enough for pull and merge requests: they keep requests in
// memory, record every call (to check headers and bodies), can be told to refuse the next call, and let a test merge
// a request as a person on the forge would.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The token the stand-ins accept; any other is refused with 401. */
export const FORGE_TEST_TOKEN = 'forge-token-123';

export interface ForgeCall { method: string; path: string; headers: IncomingMessage['headers']; body: unknown }

interface StoredRequest {
  number: number; head: string; base: string; title: string; body: string; draft: boolean;
  state: 'open' | 'closed' | 'merged'; sha: string;
}

export interface ForgeStandIn {
  /** The API base to give the desk (GITHUB_API_URL / GITLAB_API_URL). */
  apiBase: string;
  calls: ForgeCall[];
  requests: StoredRequest[];
  /** The next call is answered with this status and the forge's error body. */
  refuseNext(status: number, message: string): void;
  merge(number: number): void;
  /** GitHub: the check runs on every head; GitLab: the head pipeline's status. */
  setChecks(checks: Array<{ status: string; conclusion: string | null }> | string): void;
  close(): Promise<void>;
}

export async function startForgeStandIn(kind: 'github' | 'gitlab', repository: string): Promise<ForgeStandIn> {
  const calls: ForgeCall[] = [];
  const requests: StoredRequest[] = [];
  let refusal: { status: number; message: string } | undefined;
  let checks: Array<{ status: string; conclusion: string | null }> | string = [];
  const base = kind === 'github' ? '' : '/api/v4';
  const repoPath = kind === 'github' ? `/repos/${repository}` : `/projects/${encodeURIComponent(repository)}`;
  const webOf = (number: number) => kind === 'github' ? `https://github.com/${repository}/pull/${number}` : `https://gitlab.com/${repository}/-/merge_requests/${number}`;

  const asGitHub = (request: StoredRequest) => ({
    number: request.number, html_url: webOf(request.number), state: request.state === 'open' ? 'open' : 'closed', draft: request.draft,
    merged: request.state === 'merged', merged_at: request.state === 'merged' ? '2026-01-01T00:00:00Z' : null,
    title: request.title, body: request.body, head: { ref: request.head, sha: request.sha }, base: { ref: request.base },
  });
  const asGitLab = (request: StoredRequest) => ({
    iid: request.number, web_url: webOf(request.number), state: request.state === 'open' ? 'opened' : request.state,
    draft: request.draft, title: request.title, description: request.body, source_branch: request.head, target_branch: request.base,
    head_pipeline: typeof checks === 'string' ? { status: checks } : null,
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
    if (kind === 'github' && call.method === 'GET' && /^\/commits\/[0-9a-f]+\/check-runs$/.test(rest)) {
      const runs = typeof checks === 'string' ? [] : checks;
      return answer(response, 200, { total_count: runs.length, check_runs: runs });
    }
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
    refuseNext: (status, message) => { refusal = { status, message }; },
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

