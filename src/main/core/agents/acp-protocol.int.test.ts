// The desk's side of ACP with a real agent process, as a client of the desk observes it: a file an agent creates
// after a not-found answer, permission requests judged by the tool calls they are about, and handshakes that time out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SandboxStatus } from '../../../shared/sandbox';
import { git } from '../git/git-test-fixture';
import { desksPerTest, policyAllowing, scriptedAgent, taskEvents } from '../test-support/desk-harness';
import type { AgentSpec } from './agent-spec';
import { writeProtocolFixture } from './test-support/protocol-fixture-agent';

const openDesk = desksPerTest();
// The fixture is written to a temp dir, which the sandbox does not show; these tests are about the protocol.
const NO_SANDBOX: SandboxStatus = { kind: 'none', available: false, reason: 'taken away for this test' };
const scriptDir = mkdtempSync(join(tmpdir(), 'desk-protocol-fixture-'));
const script = writeProtocolFixture(scriptDir);
afterAll(() => rmSync(scriptDir, { recursive: true, force: true }));

function fixture(mode: string): AgentSpec {
  return { id: 'fixture', name: `Protocol fixture (${mode})`, command: process.execPath, args: [script, `--mode=${mode}`], dialect: 'acp', envAllowlist: [], env: {} };
}

async function agentSaid(d: Awaited<ReturnType<typeof openDesk>>, id: string): Promise<string> {
  return (await taskEvents(d, id)).flatMap((e) => (e.type === 'agent' && e.update.kind === 'message' ? [e.update.text] : [])).join('');
}

describe('an agent that creates a file the way Gemini CLI does', () => {
  it('hears resource-not-found for the file that is not there yet, writes it, and the commit holds it', async () => {
    const d = await openDesk({ sandbox: NO_SANDBOX, agents: [scriptedAgent(), fixture('create-file')], policy: policyAllowing('read', 'edit') });
    await d.api('POST', '/', { id: 'create', prompt: 'create the file', agent: 'fixture' });
    expect(await d.waitForStatus('create', ['error', 'completed'])).toBe('completed');

    const said = await agentSaid(d, 'create');
    expect(said).toMatch(/read answered error -32002: Resource not found: .*created\.txt/);
    expect(said).toContain('write answered ok');
    const { commit } = (await d.api('GET', '/tasks/create')).json;
    expect(git(d.repo, 'show', `${commit}:created.txt`)).toBe('made after a not-found answer');
  });
});

describe('a permission request that names only its tool call, as claude-code-acp sends it', () => {
  it('is judged by the kind, paths and command of the tool call, so a policy allowing edits and commands asks nobody', async () => {
    const d = await openDesk({ sandbox: NO_SANDBOX, agents: [scriptedAgent(), fixture('claude-tools')], policy: policyAllowing('read', 'edit', 'execute') });
    await d.api('POST', '/', { id: 'claude-like', prompt: 'write hello.txt and look at git', agent: 'fixture' });
    expect(await d.waitForStatus('claude-like', ['error', 'completed', 'awaiting-input'])).toBe('completed');

    const events = await taskEvents(d, 'claude-like');
    expect(events.filter((e) => e.type === 'question-opened')).toEqual([]);
    // The write permission and the command's: the file write the allowed request named is the same decision, not said again.
    expect(events.filter((e) => e.type === 'governance').map((e) => e.type === 'governance' && e.decision)).toEqual(['approved', 'approved']);
    const said = await agentSaid(d, 'claude-like');
    expect(said).toContain('write permission: allow\n');
    expect(said).toContain('command permission: allow\n');
    const { commit } = (await d.api('GET', '/tasks/claude-like')).json;
    expect(git(d.repo, 'show', `${commit}:hello.txt`)).toBe('hello');
  });

  it('puts the edit to a person, showing its path, when the policy says to ask about edits', async () => {
    const d = await openDesk({ sandbox: NO_SANDBOX, agents: [scriptedAgent(), fixture('claude-tools')], policy: { version: 1, defaults: { capabilities: { read: 'allow', edit: 'ask', execute: 'allow' } } } });
    await d.api('POST', '/', { id: 'ask-edit', prompt: 'write hello.txt', agent: 'fixture' });
    expect(await d.waitForStatus('ask-edit', ['error', 'completed', 'awaiting-input'])).toBe('awaiting-input');

    const question = (await taskEvents(d, 'ask-edit')).find((e) => e.type === 'question-opened');
    expect(question?.type === 'question-opened' && question.question.toolCall).toMatchObject({ kind: 'edit', locations: [{ path: expect.stringMatching(/hello\.txt$/) }] });
  });
});

describe('an agent that never answers a handshake step', () => {
  it.each([['silent-init', 'initialize'], ['silent-session', 'session/new']])('(%s) ends the task in error naming %s, instead of leaving it in progress', async (mode, step) => {
    const d = await openDesk({ sandbox: NO_SANDBOX, agents: [scriptedAgent(), { ...fixture(mode), handshakeTimeoutMs: 1000 }] });
    await d.api('POST', '/', { id: 'mute', prompt: 'anything', agent: 'fixture' });
    expect(await d.waitForStatus('mute', ['error', 'completed'])).toBe('error');
    expect((await d.api('GET', '/tasks/mute')).json.errorMessage).toMatch(new RegExp(`^The agent did not answer ${step} within 1 s\\. Check that its command starts an agent speaking ACP`));
  });
});

describe('an agent that fails with a bare "Internal error"', () => {
  it('ends the task with the cause from the error\'s data and the agent\'s own log, and what to look at', async () => {
    const d = await openDesk({ sandbox: NO_SANDBOX, agents: [scriptedAgent(), fixture('internal-error')] });
    await d.api('POST', '/', { id: 'broken', prompt: 'anything', agent: 'fixture' });
    expect(await d.waitForStatus('broken', ['error', 'completed'])).toBe('error');
    const { errorMessage } = (await d.api('GET', '/tasks/broken')).json;
    expect(errorMessage).toMatch(/^The agent failed: Internal error\.\nIts error says: Query closed before response received\nIts last lines on stderr:\n.*Error: EROFS: read-only file system, open '\/home\/person\/\.claude\.json'/);
    expect(errorMessage).toContain('a state file it cannot write');
  });
});
