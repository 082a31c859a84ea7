// An agent in trouble, as a person sees it through the desk: a bare "Internal error" explained from the agent's own
// output with the endpoint it was pointed at, and a turn gone silent announced with the agent's last log lines.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SandboxStatus } from '../../../shared/sandbox';
import type { AgentSpec } from '../agents/agent-spec';
import { desksPerTest, scriptedAgent, waitForEvent } from '../test-support/desk-harness';
import { writeRunsFixtureAgent } from './test-support/runs-fixture-agent';

const openDesk = desksPerTest();
// The fixture agent is written to a temp dir, which the sandbox does not show; these tests are not about the sandbox.
const NO_SANDBOX: SandboxStatus = { kind: 'none', available: false, reason: 'taken away for this test' };
const scriptDir = mkdtempSync(join(tmpdir(), 'desk-runs-agent-'));
const script = writeRunsFixtureAgent(scriptDir);
afterAll(() => rmSync(scriptDir, { recursive: true, force: true }));

/** The fixture in `mode`, pointed at a model endpoint the way a person points an agent at a gateway. */
function fixture(mode: string): AgentSpec {
  return {
    id: mode, name: `Fixture (${mode})`, command: process.execPath, args: [script, `--mode=${mode}`], dialect: 'acp', envAllowlist: [],
    env: { FIXTURE_BASE_URL: 'http://gateway-user:gateway-secret@127.0.0.1:4999/v1' },
  };
}

async function failedWith(mode: string): Promise<string> {
  const d = await openDesk({ sandbox: NO_SANDBOX, agents: [scriptedAgent(), fixture(mode)] });
  await d.api('POST', '/', { id: 'fails', prompt: 'do it', agent: mode });
  expect(await d.waitForStatus('fails', ['error', 'completed'])).toBe('error');
  return (await d.api('GET', '/tasks/fails')).json.errorMessage as string;
}

describe('an agent that fails with a bare "Internal error"', () => {
  it('ends the task with the cause from the agent\'s own stderr, what to do, and the endpoint it was pointed at', async () => {
    const message = await failedWith('internal');
    expect(message).toMatch(/^The agent failed: Internal error\.\n/);
    expect(message).toContain('Its last lines on stderr:\n  Reconnecting... 1/3\n  API Error: 500 {"error":"upstream model overloaded"}');
    expect(message).toContain('then resubmit the task');
    expect(message).toContain('It was pointed at FIXTURE_BASE_URL=http://127.0.0.1:4999/v1: check that this endpoint answers');
  });

  it('never shows the endpoint\'s user and password in the task\'s error', async () => {
    const message = await failedWith('internal');
    expect(message).not.toContain('gateway-secret');
    expect(message).not.toContain('gateway-user');
  });

  it('says how to find the cause when the agent gave none', async () => {
    const message = await failedWith('internal-silent');
    expect(message).toContain('It gave no cause and wrote nothing on stderr: run it outside the desk with the same variables to see why');
  });
});

describe('an agent pointed at its model in its own config file', () => {
  it('names the endpoint from that file in the task\'s error', async () => {
    const home = mkdtempSync(join(scriptDir, 'home-'));
    writeFileSync(join(home, 'agent.toml'), '[model_providers.gateway]\nbase_url = "http://127.0.0.1:4998/v1"\n');
    const configured: AgentSpec = { ...fixture('internal'), id: 'configured', env: { HOME: home }, endpointFiles: ['~/agent.toml'] };
    const d = await openDesk({ sandbox: NO_SANDBOX, agents: [scriptedAgent(), configured] });
    await d.api('POST', '/', { id: 'fails', prompt: 'do it', agent: 'configured' });
    expect(await d.waitForStatus('fails', ['error', 'completed'])).toBe('error');
    expect((await d.api('GET', '/tasks/fails')).json.errorMessage).toContain('It was pointed at ~/agent.toml base URL=http://127.0.0.1:4998/v1: check that this endpoint answers');
  });
});

describe('an agent that exits in the middle of its turn', () => {
  it('ends the task with how it exited, its last words, and the endpoint it was pointed at', async () => {
    const message = await failedWith('crash');
    expect(message).toBe('The agent exited with code 1: fatal: model endpoint refused the connection\n'
      + 'It was pointed at FIXTURE_BASE_URL=http://127.0.0.1:4999/v1: check that this endpoint answers (inside the desk\'s sandbox, the policy\'s network must name its host and port).');
  });
});

describe('a turn in which the agent sends nothing', () => {
  it('gets a line in the activity with the agent\'s own last log lines, and cancel still ends it', async () => {
    const d = await openDesk({ sandbox: NO_SANDBOX, agents: [scriptedAgent(), fixture('stall')] });
    await d.api('PUT', '/api/settings', { quietAfterSeconds: 1 });
    await d.api('POST', '/', { id: 'stalled', prompt: 'do it', agent: 'stall' });

    const notice = await waitForEvent(d, 'stalled', ({ event }) => event.type === 'log' && event.text.includes('has sent nothing'));
    expect(notice.event).toMatchObject({ type: 'log', level: 'warn', source: 'desk' });
    const text = notice.event.type === 'log' ? notice.event.text : '';
    expect(text).toMatch(/^Fixture \(stall\) has sent nothing for \d+ s\. Its last lines on stderr:\n {2}Request failed with status 429, retrying in 30s\n {2}Reconnecting\.\.\. waiting for network/);
    expect(text).toContain('It is pointed at FIXTURE_BASE_URL=http://127.0.0.1:4999/v1');

    expect((await d.api('DELETE', '/stalled')).json.status).toBe('cancelled');
  });
});
