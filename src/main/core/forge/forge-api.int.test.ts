// The GitHub and GitLab clients against stand-ins of their APIs on 127.0.0.1: what they send, what they read back,
// and each refusal in the forge's own words, with the token in no message.
import { afterEach, describe, expect, it } from 'vitest';
import { FORGE_TEST_TOKEN, startForgeStandIn, type ForgeStandIn } from '../test-support/forge-stand-in';
import { ForgeError, type ForgeApi } from './forge-api';
import { githubApi } from './github-api';
import { gitlabApi } from './gitlab-api';

const FORGES = [
  { kind: 'github' as const, repository: 'acme/app', client: githubApi },
  { kind: 'gitlab' as const, repository: 'group/sub/app', client: gitlabApi },
];

describe.each(FORGES)('the $kind client', ({ kind, repository, client }) => {
  let forge: ForgeStandIn;
  let api: ForgeApi;
  const open = () => api.open({ head: 'desk/d1/fix-1a2b', base: 'main', title: 'Fix the greeting', body: 'The prompt', draft: false });
  const failureOf = (work: Promise<unknown>) => work.then(() => undefined, (error: unknown) => error);

  async function start(token = FORGE_TEST_TOKEN): Promise<void> {
    forge = await startForgeStandIn(kind, repository);
    api = client({ fetch, apiBase: forge.apiBase, token, repository });
  }
  afterEach(async () => { await forge?.close(); });

  it('opens a request from the task branch into the base, with the token as a bearer header', async () => {
    await start();
    const opened = await open();

    expect(opened).toMatchObject({ number: 1, state: 'open', draft: false, head: 'desk/d1/fix-1a2b', base: 'main', url: expect.stringContaining(repository) });
    const [call] = forge.calls;
    expect(call!.method).toBe('POST');
    expect(call!.headers.authorization).toBe(`Bearer ${FORGE_TEST_TOKEN}`);
    expect(call!.body).toMatchObject(kind === 'github'
      ? { head: 'desk/d1/fix-1a2b', base: 'main', title: 'Fix the greeting', body: 'The prompt' }
      : { source_branch: 'desk/d1/fix-1a2b', target_branch: 'main', title: 'Fix the greeting', description: 'The prompt' });
  });

  it('marks a draft the way the forge does', async () => {
    await start();
    const opened = await api.open({ head: 'b', base: 'main', title: 'Try it', body: '', draft: true });
    expect(opened.draft).toBe(true);
    if (kind === 'gitlab') expect(forge.requests[0]!.title).toBe('Draft: Try it');
  });

  it('finds the request of a branch and reads it merged after a merge on the forge, with its checks', async () => {
    await start();
    const opened = await open();
    forge.setChecks(kind === 'github' ? [{ status: 'completed', conclusion: 'success' }, { status: 'in_progress', conclusion: null }] : 'running');
    expect(await api.findByHead('desk/d1/fix-1a2b')).toMatchObject({ number: opened.number, state: 'open' });
    expect((await api.get(opened.number)).checks).toMatchObject({ state: 'pending' });

    forge.merge(opened.number);
    forge.setChecks(kind === 'github' ? [{ status: 'completed', conclusion: 'success' }] : 'success');
    expect(await api.get(opened.number)).toMatchObject({ state: 'merged', checks: { state: 'success' } });
    expect(await api.findByHead('another-branch')).toBeUndefined();
  });

  it('says in the forge\'s words why a second request for the same branch is refused', async () => {
    await start();
    await open();
    const refusal = await failureOf(open());
    expect(refusal).toBeInstanceOf(ForgeError);
    expect(refusal).toMatchObject({ status: kind === 'github' ? 422 : 409, message: expect.stringMatching(/already exists/) });
  });

  it.each([[401, 'Bad credentials'], [403, 'Resource not accessible by integration'], [404, 'Not Found']])('passes a %i on with the forge\'s message and no token', async (status, message) => {
    await start();
    forge.refuseNext(status, message);
    const refusal = await failureOf(open()) as ForgeError;
    expect(refusal).toMatchObject({ status, message: expect.stringContaining(message) });
    expect(refusal.message).not.toContain(FORGE_TEST_TOKEN);
  });

  it('refuses a wrong token with the forge\'s 401', async () => {
    await start('not-the-token');
    expect(await failureOf(open())).toMatchObject({ status: 401 });
  });

  it('says which address it could not reach when the forge is down', async () => {
    await start();
    const { apiBase } = forge;
    await forge.close();
    const refusal = await failureOf(open()) as ForgeError;
    expect(refusal).toMatchObject({ status: 0, message: expect.stringContaining(apiBase) });
  });
});
