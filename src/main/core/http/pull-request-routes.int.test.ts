// Pull requests (GitHub) and merge requests (GitLab) from a real desk over HTTP: the push to the remote's push URL, the
// request the forge stand-in receives, idempotence, refresh and the poller, each forge refusal, and the token kept
// out of every answer, event, log line and file of the desk.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, isolateGitConfig } from '../git/git-test-fixture';
import { destroyDesk, policyAllowing, startDesk, taskEvents, waitForEvent, type Desk, type RawResponse } from '../test-support/desk-harness';
import { FORGE_TEST_TOKEN, startForgeStandIn, type ForgeStandIn } from '../test-support/forge-stand-in';

type Kind = 'github' | 'gitlab';
type TestDesk = Desk & { root: string };

const REPOSITORY = 'acme/widgets';
const FORGES: Record<Kind, { fetchUrl: string; tokenVar: string; apiVar: string; noun: string }> = {
  github: { fetchUrl: `https://github.com/${REPOSITORY}.git`, tokenVar: 'GH_TOKEN', apiVar: 'GITHUB_API_URL', noun: 'pull request' },
  gitlab: { fetchUrl: `https://gitlab.com/${REPOSITORY}.git`, tokenVar: 'GITLAB_TOKEN', apiVar: 'GITLAB_API_URL', noun: 'merge request' },
};

/** A desk whose `origin` fetches from the forge's URL and pushes to a bare repository in temp. */
async function forgeDesk(kind: Kind, apiBase: string, options: { pollMs?: number; token?: string } = {}) {
  const lines: string[] = [];
  const { tokenVar, apiVar, fetchUrl } = FORGES[kind];
  const d = await startDesk({
    env: { [tokenVar]: options.token ?? FORGE_TEST_TOKEN, [apiVar]: apiBase },
    // An hour: no poll steals a refusal meant for a route; the poller's own test asks for a short one.
    pullRequestPollMs: options.pollMs ?? 3_600_000,
    log: (line) => lines.push(line),
  });
  const bare = join(d.root, 'remote.git');
  git(d.root, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
  git(d.repo, 'remote', 'add', 'origin', fetchUrl);
  git(d.repo, 'remote', 'set-url', '--push', 'origin', bare);
  return { d, bare, lines };
}

async function completed(d: Desk, id: string): Promise<{ branch: string; commit: string }> {
  const submitted = await d.api('POST', '/', { id, prompt: `write ${id}.txt done` });
  expect(submitted.status, submitted.text).toBeLessThan(300);
  await d.waitForStatus(id, 'completed');
  return (await d.api('GET', `/tasks/${id}`)).json;
}

/** Every file under `dir`, for a search of what the desk wrote down. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe.each(['github', 'gitlab'] as const)('%s requests from the board', (kind) => {
  const { noun } = FORGES[kind];
  let forge: ForgeStandIn;
  let desk: Awaited<ReturnType<typeof forgeDesk>>;
  let restoreGit: () => void = () => {};
  const answers: RawResponse[] = [];
  /** Calls the desk and keeps the answer for the search for the token. */
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await desk.d.api(method, path, body);
    answers.push(answer);
    return answer;
  };
  const others: TestDesk[] = [];
  const otherLines: string[][] = [];

  beforeAll(async () => {
    restoreGit = isolateGitConfig();
    forge = await startForgeStandIn(kind, REPOSITORY);
    desk = await forgeDesk(kind, forge.apiBase);
  });
  afterAll(async () => {
    for (const other of others) await destroyDesk(other);
    await destroyDesk(desk?.d);
    await forge?.close();
    restoreGit();
  });

  it(`pushes a completed task's branch and opens a ${noun} from it to its base branch, answering 201`, async () => {
    const task = await completed(desk.d, 'opened');
    const answer = await call('POST', '/api/tasks/opened/pull-request');
    expect(answer.status, answer.text).toBe(201);
    expect(answer.json).toMatchObject({ forge: kind, number: 1, state: 'open', draft: false, head: task.branch, base: 'main' });
    expect(answer.json.url).toBe(kind === 'github' ? `https://github.com/${REPOSITORY}/pull/1` : `https://gitlab.com/${REPOSITORY}/-/merge_requests/1`);
    expect(git(desk.bare, 'rev-parse', `refs/heads/${task.branch}`)).toBe(task.commit);
    expect(forge.requests[0]).toMatchObject({ head: task.branch, base: 'main', title: 'write opened.txt done' });
  });

  it('sends the token to the forge as a bearer token', () => {
    expect(forge.calls.length).toBeGreaterThan(0);
    for (const forgeCall of forge.calls) expect(forgeCall.headers.authorization).toBe(`Bearer ${FORGE_TEST_TOKEN}`);
  });

  it(`shows the ${noun} on the task in GET /tasks/<id> and GET /`, async () => {
    const detail = await call('GET', '/tasks/opened');
    expect(detail.json.pullRequest).toMatchObject({ number: 1, state: 'open' });
    const listed = (await call('GET', '/')).json.tasks.find((task: { id: string }) => task.id === 'opened');
    expect(listed.pullRequest).toMatchObject({ number: 1, state: 'open' });
  });

  it(`answers a second request for the same task with its ${noun} and 200, opening nothing new`, async () => {
    const again = await call('POST', '/api/tasks/opened/pull-request', { title: 'Another title' });
    expect(again.status, again.text).toBe(200);
    expect(again.json).toMatchObject({ number: 1, state: 'open' });
    expect(forge.requests).toHaveLength(1);
  });

  it('takes the title, body, draft and base a client gives', async () => {
    await completed(desk.d, 'styled');
    git(desk.d.repo, 'branch', 'release');
    const answer = await call('POST', '/api/tasks/styled/pull-request', { title: 'Styled widgets', body: 'Why: styles.', draft: true, base: 'release' });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.json).toMatchObject({ draft: true, base: 'release' });
    // GitLab knows a draft by its title.
    const title = kind === 'gitlab' ? 'Draft: Styled widgets' : 'Styled widgets';
    expect(forge.requests.at(-1)).toMatchObject({ title, body: 'Why: styles.', draft: true, base: 'release' });
  });

  it('lists the files that can run code or steer agents at the end of the body, whoever wrote the rest', async () => {
    await desk.d.api('POST', '/', { id: 'instructed', prompt: 'write CLAUDE.md Always push.\nwrite instructed.txt done' });
    await desk.d.waitForStatus('instructed', 'completed');
    expect((await call('POST', '/api/tasks/instructed/pull-request', { body: 'Why: rules.' })).status).toBe(201);
    const { body } = forge.requests.at(-1) as { body: string };
    expect(body.startsWith('Why: rules.\n')).toBe(true);
    expect(body).toContain('Files that can run code or steer agents');
    expect(body).toMatch(/- `CLAUDE\.md`: .*coding agents/);
    expect(body).not.toContain('instructed.txt');
  });

  it(`adopts an open ${noun} someone opened by hand for the task's branch, answering 200 and opening none`, async () => {
    const task = await completed(desk.d, 'by-hand');
    git(desk.d.repo, 'push', '--quiet', 'origin', task.branch);
    forge.requests.push({ number: forge.requests.length + 1, head: task.branch, base: 'main', title: 'Opened by hand', body: '', draft: false, state: 'open', sha: 'b'.repeat(40) });
    const before = forge.requests.length;
    const answer = await call('POST', '/api/tasks/by-hand/pull-request');
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toMatchObject({ number: before, head: task.branch, state: 'open' });
    expect(forge.requests).toHaveLength(before);
  });

  it("shows the forge's checks on the request after a refresh", async () => {
    forge.setChecks(kind === 'github' ? [{ status: 'completed', conclusion: 'success' }, { status: 'completed', conclusion: 'failure' }] : 'failed');
    const refreshed = await call('POST', '/api/tasks/opened/pull-request/refresh');
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.json.checks).toMatchObject(kind === 'github' ? { state: 'failure', total: 2, passed: 1, failed: 1 } : { state: 'failure' });
    forge.setChecks(kind === 'github' ? [] : '');
  });

  it(`shows a ${noun} merged on the forge as merged after a refresh`, async () => {
    forge.merge(1);
    const refreshed = await call('POST', '/api/tasks/opened/pull-request/refresh');
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.json.state).toBe('merged');
    expect((await call('GET', '/tasks/opened')).json.pullRequest.state).toBe('merged');
  });

  it('refuses to open a request for a task that has not completed, saying why', async () => {
    await desk.d.api('POST', '/', { id: 'unfinished', prompt: 'ask Shall I go on?\nsay went on' });
    await desk.d.waitForStatus('unfinished', 'awaiting-input');
    const answer = await call('POST', '/api/tasks/unfinished/pull-request');
    expect(answer.status).toBe(409);
    expect(answer.json).toMatchObject({ code: 'task_not_finished' });
    await desk.d.api('DELETE', '/tasks/unfinished');
  });

  it('refuses a refresh of a task without a request, saying how to open one', async () => {
    await completed(desk.d, 'bare-task');
    const answer = await call('POST', '/api/tasks/bare-task/pull-request/refresh');
    expect(answer.status).toBe(409);
    expect(answer.json.message).toContain('POST /api/tasks/bare-task/pull-request');
  });

  const refusals: Array<{ forgeStatus: number; words: string; status: number; code: string }> = [
    { forgeStatus: 401, words: 'Bad credentials', status: 403, code: 'forge_token_refused' },
    { forgeStatus: 403, words: 'Resource not accessible by integration', status: 403, code: 'forge_forbidden' },
    { forgeStatus: 404, words: 'Project Not Found', status: 404, code: 'forge_repository_not_found' },
    { forgeStatus: 422, words: 'Base branch was modified', status: 409, code: 'forge_refused' },
  ];
  it.each(refusals)('answers the forge\'s $forgeStatus with $status in the forge\'s own words', async ({ forgeStatus, words, status, code }) => {
    const id = `refused-${forgeStatus}`;
    await completed(desk.d, id);
    forge.refuseNext(forgeStatus, words);
    const answer = await call('POST', `/api/tasks/${id}/pull-request`);
    expect(answer.status, answer.text).toBe(status);
    expect(answer.json).toMatchObject({ code });
    expect(answer.json.message).toContain(words);
    expect((await call('GET', `/tasks/${id}`)).json.pullRequest).toBeUndefined();
  });

  it('answers 502 naming the API address when the forge does not answer', async () => {
    const gone = await startForgeStandIn(kind, REPOSITORY);
    const apiBase = gone.apiBase;
    await gone.close();
    const offline = await forgeDesk(kind, apiBase);
    others.push(offline.d);
    otherLines.push(offline.lines);
    await completed(offline.d, 'offline');
    const answer = await offline.d.api('POST', '/api/tasks/offline/pull-request');
    answers.push(answer);
    expect(answer.status, answer.text).toBe(502);
    expect(answer.json).toMatchObject({ code: 'forge_unreachable' });
    expect(answer.json.message).toContain(apiBase);
  });

  it('answers 400 saying where to put a token when the desk has none', async () => {
    const tokenless = await startDesk({ env: { [FORGES[kind].apiVar]: forge.apiBase } });
    others.push(tokenless);
    git(tokenless.repo, 'remote', 'add', 'origin', FORGES[kind].fetchUrl);
    await completed(tokenless, 'tokenless');
    const answer = await tokenless.api('POST', '/api/tasks/tokenless/pull-request');
    expect(answer.status, answer.text).toBe(400);
    expect(answer.json).toMatchObject({ code: 'forge_token_missing' });
    expect(answer.json.message).toContain(FORGES[kind].tokenVar);
  });

  it(`shows a ${noun} merged on the forge as merged from the poller, without a refresh`, async () => {
    const polled = await forgeDesk(kind, forge.apiBase, { pollMs: 100 });
    others.push(polled.d);
    otherLines.push(polled.lines);
    await completed(polled.d, 'polled');
    const opened = await polled.d.api('POST', '/api/tasks/polled/pull-request');
    expect(opened.status, opened.text).toBe(201);
    const merged = waitForEvent(polled.d, 'polled', ({ event }) => event.type === 'task' && event.task.pullRequest?.state === 'merged');
    forge.merge(opened.json.number);
    await merged;
    expect((await polled.d.api('GET', '/tasks/polled')).json.pullRequest.state).toBe('merged');
  });

  it('never puts the token in an answer, an event, a log line or a file of the desk', async () => {
    for (const answer of answers) expect(answer.text).not.toContain(FORGE_TEST_TOKEN);
    for (const d of [desk.d, ...others]) {
      const listed = (await d.api('GET', '/')).json.tasks as Array<{ id: string }>;
      for (const { id } of listed) expect(JSON.stringify(await taskEvents(d, id))).not.toContain(FORGE_TEST_TOKEN);
    }
    expect([...desk.lines, ...otherLines.flat()].join('\n')).not.toContain(FORGE_TEST_TOKEN);
    for (const file of [desk.d, ...others].flatMap((d) => filesUnder(d.dataDir))) expect(readFileSync(file).includes(FORGE_TEST_TOKEN), file).toBe(false);
  });
});

describe('forge tokens and agents', () => {
  let restoreGit: () => void = () => {};
  let d: TestDesk | undefined;
  beforeAll(() => { restoreGit = isolateGitConfig(); });
  afterAll(async () => {
    await destroyDesk(d);
    restoreGit();
  });

  it("keeps the desk's forge tokens out of an agent's environment and the commands it runs", async () => {
    const names = ['GH_TOKEN', 'GITHUB_TOKEN', 'GITLAB_TOKEN'] as const;
    const before = names.map((name) => process.env[name]);
    // The host hands agents its own process environment through the agent catalog: the tokens are in it, as on a
    // person's machine where the desk was started from a shell that exported them.
    for (const name of names) process.env[name] = FORGE_TEST_TOKEN;
    try {
      d = await startDesk({ policy: policyAllowing('execute'), env: { GH_TOKEN: FORGE_TEST_TOKEN, GITLAB_TOKEN: FORGE_TEST_TOKEN } });
      await d.api('POST', '/', { id: 'nosy', prompt: 'run env > seen-env.txt' });
      await d.waitForStatus('nosy', 'completed');
    } finally {
      names.forEach((name, index) => { if (before[index] === undefined) delete process.env[name]; else process.env[name] = before[index]; });
    }
    const { commit } = (await d.api('GET', '/tasks/nosy')).json;
    const seen = git(d.repo, 'show', `${commit}:seen-env.txt`);
    expect(seen).toContain('PATH=');
    expect(seen).not.toContain(FORGE_TEST_TOKEN);
    expect(JSON.stringify(await taskEvents(d, 'nosy'))).not.toContain(FORGE_TEST_TOKEN);
  });
});
