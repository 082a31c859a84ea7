// Agents that cannot work, as a person sees it: a login asked for at the prompt with what works for each method,
// a turn gone silent, and an update of a kind ACP does not have.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SandboxStatus } from '../../../shared/sandbox';
import { desksPerTest, scriptedAgent, taskEvents, waitForEvent } from '../test-support/desk-harness';
import type { AgentSpec } from './agent-spec';
import { FIXTURE_AGENT_INFO, writeFixtureAgent } from './test-support/fixture-acp-agent';

const openDesk = desksPerTest();
// The fixture agent is written to a temp dir, which the sandbox does not show; these tests are not about the sandbox.
const NO_SANDBOX: SandboxStatus = { kind: 'none', available: false, reason: 'taken away for this test' };
const scriptDir = mkdtempSync(join(tmpdir(), 'desk-fixture-agent-'));
const script = writeFixtureAgent(scriptDir);
afterAll(() => rmSync(scriptDir, { recursive: true, force: true }));

function fixture(id: string, mode: string): AgentSpec {
  return { id, name: `Fixture (${mode})`, command: process.execPath, args: [script, `--mode=${mode}`], dialect: 'acp', envAllowlist: [], env: {} };
}

describe('an agent that wants a login at the prompt', () => {
  it('ends the task in error listing its login methods, each with the action that works, and the real agent id', async () => {
    const d = await openDesk({ sandbox: NO_SANDBOX, agents: [scriptedAgent(), fixture('fixture', 'auth')] });
    await d.api('POST', '/', { id: 'needs-login', prompt: 'do it', agent: 'fixture' });
    expect(await d.waitForStatus('needs-login', ['error', 'completed'])).toBe('error');

    const task = (await d.api('GET', '/tasks/needs-login')).json;
    expect(task.errorMessage).toContain('Fixture (auth) needs a login before it can work (it said: Authentication required)');
    expect(task.errorMessage).toContain('"Log in in a terminal" — log in from the desk: Log in on the agent in Settings, or POST /api/agents/fixture/login {"methodId": "fixture-login"}');
    expect(task.errorMessage).toContain('"Use an API key" — set FIXTURE_API_KEY in the environment the desk starts in and add FIXTURE_API_KEY to the agent\'s envAllowlist in agents.json, then set "authMethod": "fixture-key" for agent "fixture"');
    expect(task.errorMessage).not.toContain('<id>');

    const events = await taskEvents(d, 'needs-login');
    const login = events.find((event) => event.type === 'login-required');
    expect(login).toMatchObject({ help: { agentId: 'fixture', methods: [
      { id: 'fixture-login', action: { kind: 'terminal-login', agentId: 'fixture', methodId: 'fixture-login', route: 'POST /api/agents/fixture/login' } },
      { id: 'fixture-key', action: { kind: 'env', variables: ['FIXTURE_API_KEY'], authMethod: 'fixture-key' } },
    ] } });
    // Who the agent said it was, before it failed.
    expect(events).toContainEqual(expect.objectContaining({ type: 'log', text: `The agent is ${FIXTURE_AGENT_INFO.title} ${FIXTURE_AGENT_INFO.version} (${FIXTURE_AGENT_INFO.name}).` }));
  });

  it('also when the agent asks for it in its initialize answer', async () => {
    const d = await openDesk({ sandbox: NO_SANDBOX, agents: [scriptedAgent(), fixture('early', 'init-auth')] });
    await d.api('POST', '/', { id: 'early-login', prompt: 'do it', agent: 'early' });
    expect(await d.waitForStatus('early-login', ['error', 'completed'])).toBe('error');
    expect((await d.api('GET', '/tasks/early-login')).json.errorMessage).toMatch(/^Fixture \(init-auth\) needs a login before it can work \(it said: Authentication required\)\. It names no login method/);
  });
});

describe('an update of a kind the desk does not know', () => {
  it('is kept in the task as text, and the turn goes on', async () => {
    const d = await openDesk({ sandbox: NO_SANDBOX, agents: [scriptedAgent(), fixture('fixture', 'unknown')] });
    await d.api('POST', '/', { id: 'odd-update', prompt: 'do it', agent: 'fixture' });
    expect(await d.waitForStatus('odd-update', ['error', 'completed'])).toBe('completed');
    const updates = (await taskEvents(d, 'odd-update')).flatMap((event) => (event.type === 'agent' ? [event.update] : []));
    expect(updates).toContainEqual(expect.objectContaining({ kind: 'other', name: 'repository_indexing', text: 'Indexing the repository' }));
    expect(updates).toContainEqual(expect.objectContaining({ kind: 'message', text: 'Done here.' }));
  });
});

describe('a turn without a word from the agent', () => {
  it('shows since when the agent is quiet, past the desk\'s limit, and clears it when the turn ends', async () => {
    const d = await openDesk();
    const settings = await d.api('PUT', '/api/settings', { quietAfterSeconds: 1 });
    expect(settings.json.quietAfterSeconds).toBe(1);
    await d.api('POST', '/', { id: 'silent', prompt: 'say starting\nsleep 2500\nsay back' });

    const quiet = await waitForEvent(d, 'silent', ({ event }) => event.type === 'task' && event.task.quietSince !== undefined);
    const since = quiet.event.type === 'task' ? quiet.event.task.quietSince : undefined;
    expect(Date.parse(quiet.at) - Date.parse(since ?? '')).toBeGreaterThanOrEqual(1000);
    const listed = (await d.api('GET', '/')).json.tasks.find((task: { id: string }) => task.id === 'silent');
    expect(listed).toMatchObject({ status: 'in-progress', quietSince: since });

    expect(await d.waitForStatus('silent', ['error', 'completed'])).toBe('completed');
    const after = (await d.api('GET', '/')).json.tasks.find((task: { id: string }) => task.id === 'silent');
    expect(after.quietSince).toBeUndefined();
  });

  it('is not shown for a turn that keeps talking', async () => {
    const d = await openDesk();
    await d.api('PUT', '/api/settings', { quietAfterSeconds: 2 });
    await d.api('POST', '/', { id: 'chatty', prompt: 'sleep 800\nsay one\nsleep 800\nsay two\nsleep 800\nsay three' });
    expect(await d.waitForStatus('chatty', ['error', 'completed'])).toBe('completed');
    const summaries = (await taskEvents(d, 'chatty')).flatMap((event) => (event.type === 'task' ? [event.task] : []));
    expect(summaries.some((task) => task.quietSince !== undefined)).toBe(false);
  });
});
