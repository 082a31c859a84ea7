// Settings' Install and Test over HTTP: an agent installed with npm from a local tarball into the desk's agent
// cache (no network: npm is pointed at a closed port and kept offline), then its handshake tested.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentSpec } from './agent-spec';
import { desksPerTest, scriptedAgent, type Desk } from '../test-support/desk-harness';
import { FIXTURE_AGENT_INFO, packFixtureAgent, writeFixtureAgent } from './test-support/fixture-acp-agent';

const openDesk = desksPerTest();
const dir = mkdtempSync(join(tmpdir(), 'desk-install-'));
let tarball = '';
const saved = { registry: process.env.npm_config_registry, offline: process.env.npm_config_offline };
beforeAll(() => {
  tarball = packFixtureAgent(dir, 'fixture-acp');
  process.env.npm_config_registry = 'http://127.0.0.1:9/';
  process.env.npm_config_offline = 'true';
});
afterAll(() => {
  for (const [key, value] of Object.entries({ npm_config_registry: saved.registry, npm_config_offline: saved.offline })) {
    if (value === undefined) delete process.env[key]; else process.env[key] = value;
  }
  rmSync(dir, { recursive: true, force: true });
});

const notOnPath: AgentSpec = { id: 'fixture', name: 'Fixture agent', command: 'fixture-acp', args: [], dialect: 'acp', envAllowlist: [], env: {} };

async function agentInfo(d: Desk, id: string) {
  return (await d.api('GET', '/api/agents')).json.agents.find((agent: { id: string }) => agent.id === id);
}

async function installed(d: Desk, id: string) {
  for (let i = 0; i < 600; i++) {
    const install = (await d.api('GET', `/api/agents/${id}/install`)).json;
    if (install.state !== 'running') return install;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the install did not end within 60 s');
}

describe('installing an agent from the board', () => {
  it('installs a tarball with npm into the desk\'s agent cache, after which the agent is found and tests ready with its name and version', async () => {
    const d = await openDesk({ agents: [scriptedAgent(), notOnPath] });
    expect(await agentInfo(d, 'fixture')).toMatchObject({ available: false, state: 'not-installed' });

    const started = await d.api('POST', '/api/agents/fixture/install', { source: tarball });
    expect(started.status, started.text).toBe(202);
    expect(started.json).toMatchObject({ agentId: 'fixture', state: 'running', source: tarball, prefix: join(d.dataDir, 'agent-cache'), eventsId: 'install:fixture' });
    expect((await d.api('POST', '/api/agents/fixture/install', { source: tarball })).status).toBe(409);

    const done = await installed(d, 'fixture');
    expect(done, done.log).toMatchObject({ state: 'done', progress: 1 });
    expect(done.log).toContain(`npm install --prefix ${join(d.dataDir, 'agent-cache')}`);
    expect(await agentInfo(d, 'fixture')).toMatchObject({
      available: true, state: 'installed', resolvedPath: join(d.dataDir, 'agent-cache', 'node_modules', '.bin', 'fixture-acp'),
    });

    const test = await d.api('POST', '/api/agents/fixture/test');
    expect(test.status, test.text).toBe(200);
    expect(test.json).toMatchObject({ agentId: 'fixture', outcome: 'ready', implementation: FIXTURE_AGENT_INFO, protocolVersion: 1, message: 'Fixture Agent 1.2.3 started a session.' });
    expect(await agentInfo(d, 'fixture')).toMatchObject({ state: 'ready', implementation: FIXTURE_AGENT_INFO });

    // A task runs it from the cache, in the sandbox where this machine has one (the data dir is hidden there, the cache is not).
    await d.api('POST', '/', { id: 'with-installed', prompt: 'hello', agent: 'fixture' });
    expect(await d.waitForStatus('with-installed', ['error', 'completed'])).toBe('completed');
  });

  it('says why an install failed, with npm\'s own words', async () => {
    const d = await openDesk({ agents: [scriptedAgent(), notOnPath] });
    await d.api('POST', '/api/agents/fixture/install', { source: join(dir, 'missing.tgz') });
    const failed = await installed(d, 'fixture');
    expect(failed).toMatchObject({ state: 'failed', message: expect.stringMatching(/^npm failed \(exit code \d+\)$/) });
    expect(failed.log).toMatch(/ENOENT|missing\.tgz/);
    expect(await agentInfo(d, 'fixture')).toMatchObject({ state: 'not-installed', install: { state: 'failed' } });
  });

  it('refuses an agent it has no package for, and an unknown agent', async () => {
    const d = await openDesk({ agents: [scriptedAgent(), notOnPath] });
    expect((await d.api('POST', '/api/agents/fixture/install')).json).toMatchObject({ code: 'install_unavailable' });
    expect((await d.api('POST', '/api/agents/nobody/install')).status).toBe(404);
  });
});

describe('testing an agent', () => {
  it('names the login an agent wants at session/new, with its name and version', async () => {
    const script = writeFixtureAgent(dir);
    const wantsLogin: AgentSpec = { ...notOnPath, id: 'wants-login', name: 'Wants login', command: process.execPath, args: [script, '--mode=session-auth'] };
    const d = await openDesk({ agents: [scriptedAgent(), wantsLogin] });
    const test = (await d.api('POST', '/api/agents/wants-login/test')).json;
    expect(test).toMatchObject({ outcome: 'needs-login', implementation: FIXTURE_AGENT_INFO, login: { agentId: 'wants-login', methods: [{ id: 'fixture-login', action: { kind: 'terminal-login', route: 'POST /api/agents/wants-login/login' } }, { id: 'fixture-key' }] } });
    expect(await agentInfo(d, 'wants-login')).toMatchObject({ state: 'needs-login', login: { agentId: 'wants-login' } });
  });

  it('says so when the agent cannot start', async () => {
    const d = await openDesk({ agents: [scriptedAgent(), { ...notOnPath, command: process.execPath, args: ['-e', 'process.exit(3)'] }] });
    const test = (await d.api('POST', '/api/agents/fixture/test')).json;
    expect(test).toMatchObject({ outcome: 'failed', message: expect.stringContaining('exited') });
  });
});
