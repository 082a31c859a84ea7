// The desk's MCP server driven by the MCP SDK's own client, with the token a running task's agent got in session/new.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { desksPerTest, scriptedAgent, TEST_TOKEN, type Desk } from '../test-support/desk-harness';
import { TOKEN_KEEPER_AGENT } from './test-support/token-keeper-agent';

const openDesk = desksPerTest();

interface Keeper { desk: Desk; serversFile: string }

/** A desk whose `keeper` agent hands the test the MCP servers it was given. */
async function deskWithKeeper(policy: { propose?: 'allow' | 'ask' | 'deny'; requestsPerMinute?: number } = {}): Promise<Keeper> {
  const dir = mkdtempSync(join(tmpdir(), 'desk-mcp-agent-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const script = join(dir, 'keeper.cjs');
  writeFileSync(script, TOKEN_KEEPER_AGENT);
  const serversFile = join(dir, 'servers.json');
  const desk = await openDesk({
    concurrency: 3,
    agents: [scriptedAgent(), { ...scriptedAgent(), id: 'keeper', name: 'Keeper', args: [script, serversFile] }],
    // The stand-in writes outside its worktree (to hand the test its token): only unsandboxed can it.
    policy: {
      version: 1, agents: { keeper: { sandbox: 'off' } },
      defaults: { capabilities: { ...(policy.propose && { propose: policy.propose }) }, ...(policy.requestsPerMinute && { requestsPerMinute: policy.requestsPerMinute }) },
    },
  });
  return { desk, serversFile };
}

/** Starts a keeper task that runs for `ms` and resolves with the MCP server entry its agent received. */
async function runKeeper(keeper: Keeper, id: string, ms: number): Promise<{ url: string; headers: { name: string; value: string }[] }> {
  rmSync(keeper.serversFile, { force: true });
  expect((await keeper.desk.api('POST', '/', { id, prompt: String(ms), agent: 'keeper' })).status).toBe(202);
  await keeper.desk.waitForStatus(id, 'in-progress');
  const deadline = Date.now() + 10_000;
  while (!existsSync(keeper.serversFile)) {
    if (Date.now() > deadline) throw new Error('the agent never got its session/new');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const servers = JSON.parse(readFileSync(keeper.serversFile, 'utf8')) as { type: string; name: string; url: string; headers: { name: string; value: string }[] }[];
  expect(servers).toHaveLength(1);
  expect(servers[0]).toMatchObject({ type: 'http', name: 'assignment-desk', url: `${keeper.desk.url}/mcp` });
  return servers[0] as { url: string; headers: { name: string; value: string }[] };
}

async function connect(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'desk-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  onTestFinished(() => client.close());
  return client;
}

const headersOf = (entry: { headers: { name: string; value: string }[] }) => Object.fromEntries(entry.headers.map((h) => [h.name, h.value]));

/** A tool call's answer: its JSON text parsed, and whether the tool said it failed. */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- each tool answers its own shape
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
  let body: unknown = text;
  try { body = JSON.parse(text); } catch { /* plain text, e.g. a diff */ }
  return { isError: result.isError === true, body };
}

describe('the MCP server for agents', () => {
  it('answers 401 without a task token, with the desk\'s own token, and with the token of a task that has finished', async () => {
    const keeper = await deskWithKeeper();
    const { desk } = keeper;
    await expect(connect(`${desk.url}/mcp`, {})).rejects.toThrow(/unauthorized/);
    await expect(connect(`${desk.url}/mcp`, { Authorization: `Bearer ${TEST_TOKEN}` })).rejects.toThrow(/unauthorized/);

    const entry = await runKeeper(keeper, 'short', 300);
    await desk.waitForStatus('short', 'completed');
    await expect(connect(entry.url, headersOf(entry))).rejects.toThrow(/unauthorized/);
    // The task token opens nothing else of the desk.
    const elsewhere = await desk.api('GET', '/', undefined, { authorization: headersOf(entry).Authorization });
    expect(elsewhere.status).toBe(401);
  });

  it('lists tasks, holds a proposed task until a person accepts it, links dependencies and refuses a cycle as HTTP does', async () => {
    const keeper = await deskWithKeeper();
    const { desk } = keeper;
    const entry = await runKeeper(keeper, 'planner', 60_000);
    const client = await connect(entry.url, headersOf(entry));
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['link_dependency', 'list_tasks', 'propose_task', 'read_diff']);
    // Bodies are held to the desk's limit, as on every route.
    const huge = await desk.raw('POST', '/mcp', { headers: { ...headersOf(entry), 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: `"${'x'.repeat(2 * 1024 * 1024)}"` });
    expect(huge.status).toBe(413);

    const listed = await call(client, 'list_tasks', {});
    expect(listed.isError).toBe(false);
    expect(listed.body).toEqual([expect.objectContaining({ id: 'planner', status: 'in-progress', agent: 'keeper' })]);

    const proposed = await call(client, 'propose_task', { id: 'write-docs', prompt: 'write docs.md Docs' });
    expect(proposed).toEqual({ isError: false, body: expect.objectContaining({ id: 'write-docs', status: 'queued', proposal: 'pending', proposedBy: 'planner' }) });
    expect((await call(client, 'propose_task', { id: 'write-tests', prompt: 'say tests' })).isError).toBe(false);

    // A plain task submitted after the proposal runs first: the proposal is held, not merely slow.
    await desk.api('POST', '/', { id: 'plain', prompt: 'say plain' });
    await desk.waitForStatus('plain', 'completed');
    expect((await desk.api('GET', '/tasks/write-docs')).json).toMatchObject({ status: 'queued', proposal: 'pending', proposedBy: 'planner', attempt: 0 });

    expect((await call(client, 'link_dependency', { task: 'write-tests', dependsOn: 'write-docs' })).body).toEqual({ id: 'write-tests', dependencies: ['write-docs'] });
    const cycle = await call(client, 'link_dependency', { task: 'write-docs', dependsOn: 'write-tests' });
    const overHttp = await desk.api('PUT', '/tasks/write-docs/dependencies', { dependencies: ['write-tests'] });
    expect(overHttp.status).toBe(409);
    expect(cycle).toEqual({ isError: true, body: overHttp.json });
    expect(cycle.body).toMatchObject({ code: 'dependency_cycle' });

    const accepted = await desk.api('POST', '/tasks/write-docs/accept-proposal');
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json).toMatchObject({ id: 'write-docs', proposal: 'accepted' });
    await desk.waitForStatus('write-docs', 'completed');
    expect((await desk.api('POST', '/tasks/write-docs/accept-proposal')).status).toBe(409);

    const diff = await call(client, 'read_diff', { task: 'write-docs' });
    expect(diff.body).toContain('docs.md (added, +1 -0)');

    expect((await desk.api('POST', '/tasks/write-tests/dismiss-proposal')).json).toMatchObject({ status: 'cancelled', proposal: 'dismissed' });

    const audit = (await desk.api('GET', '/api/governance/requests?task=planner&limit=50')).json.requests as { source: string; action: string; outcome?: string; answeredBy?: string; summary: string }[];
    const proposals = audit.filter((r) => r.action === 'propose');
    expect(proposals.map((r) => [r.summary, r.outcome, r.answeredBy])).toEqual(expect.arrayContaining([
      [expect.stringContaining('write-docs'), 'allowed', 'person'],
      [expect.stringContaining('write-tests'), 'rejected', 'person'],
    ]));
    expect(audit.map((r) => r.source)).toEqual(audit.map(() => 'mcp'));
    expect(audit.filter((r) => r.action === 'link').map((r) => r.outcome)).toEqual(['failed', 'done']);
  });

  it('holds a proposal with attempts, attempts and all, until a person accepts it, and checks its attempts as POST / does', async () => {
    const keeper = await deskWithKeeper();
    const { desk } = keeper;
    const entry = await runKeeper(keeper, 'planner', 60_000);
    const client = await connect(entry.url, headersOf(entry));
    const proposed = await call(client, 'propose_task', { id: 'tried', prompt: 'write tried.md tried', attempts: [{}, { agent: 'scripted' }], judge: 'scripted' });
    expect(proposed.body).toMatchObject({ id: 'tried', proposal: 'pending' });
    // A plain task submitted after it runs first: its attempts are held with it.
    await desk.api('POST', '/', { id: 'plain', prompt: 'say plain' });
    await desk.waitForStatus('plain', 'completed');
    expect((await desk.api('GET', '/tasks/tried')).json.attempts.map((a: { status: string }) => a.status)).toEqual(['queued', 'queued']);
    expect((await desk.api('POST', '/tasks/tried/accept-proposal')).status).toBe(200);
    await desk.waitForStatus('tried', 'awaiting-input', 30_000);
    expect((await desk.api('GET', '/tasks/tried')).json).toMatchObject({ judge: 'scripted', attempts: [{ status: 'completed' }, { status: 'completed' }] });

    // Dismissed, the proposal's attempts are cancelled with it.
    expect((await call(client, 'propose_task', { id: 'dropped', prompt: 'write dropped.md x', attempts: [{}, {}] })).isError).toBe(false);
    expect((await desk.api('POST', '/tasks/dropped/dismiss-proposal')).json).toMatchObject({ status: 'cancelled', proposal: 'dismissed' });
    expect((await desk.api('GET', '/tasks/dropped')).json.attempts.map((a: { status: string }) => a.status)).toEqual(['cancelled', 'cancelled']);

    const bad = await call(client, 'propose_task', { id: 'bad', prompt: 'say x', choose: 'first' });
    expect(bad).toMatchObject({ isError: true, body: { message: 'choose: is only for a task with attempts' } });
    const unknown = await call(client, 'propose_task', { id: 'bad', prompt: 'say x', attempts: [{}, { agent: 'nobody' }] });
    expect(unknown.body.message).toMatch(/^attempts\.1\.agent: No agent "nobody"/);
    expect((await desk.api('GET', '/tasks/bad')).status).toBe(404);
  });

  it('queues a proposal at once when the policy allows proposals, refuses it when the policy denies them, and limits calls per minute', async () => {
    const allowing = await deskWithKeeper({ propose: 'allow' });
    const entry = await runKeeper(allowing, 'planner', 60_000);
    const client = await connect(entry.url, headersOf(entry));
    expect((await call(client, 'propose_task', { id: 'auto', prompt: 'say auto' })).body).toMatchObject({ proposal: 'accepted' });
    await allowing.desk.waitForStatus('auto', 'completed');

    const denying = await deskWithKeeper({ propose: 'deny', requestsPerMinute: 2 });
    const denied = await runKeeper(denying, 'planner', 60_000);
    const deniedClient = await connect(denied.url, headersOf(denied));
    const refused = await call(deniedClient, 'propose_task', { id: 'nope', prompt: 'say no' });
    expect(refused).toEqual({ isError: true, body: expect.objectContaining({ code: 'policy_rejected' }) });
    expect((await denying.desk.api('GET', '/tasks/nope')).status).toBe(404);
    expect((await call(deniedClient, 'list_tasks', {})).isError).toBe(false);
    expect(await call(deniedClient, 'list_tasks', {})).toEqual({ isError: true, body: expect.objectContaining({ code: 'rate_limited' }) });
  });
});
