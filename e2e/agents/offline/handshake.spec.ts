// Real agents from npm, spoken to directly: the ACP handshake and a session, offline and without credentials.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonRpcError } from '../../../src/shared/json-rpc-peer';
import { answerWithin, createAgentFixture, type AgentFixture } from '../agent-fixture';
import { OFFLINE_AGENTS } from '../real-agents';

/** ACP's error code for "authenticate first" (`auth_required`). */
const AUTH_REQUIRED = -32000;
const ANSWER_MS = 60_000;

const INITIALIZE = {
  protocolVersion: 1,
  clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
  clientInfo: { name: 'assignment-desk', version: 'test' },
};

describe.each(OFFLINE_AGENTS)('$npmPackage@$version', (agent) => {
  let fixture: AgentFixture;
  beforeEach(() => { fixture = createAgentFixture(); });
  afterEach(async () => { await fixture.dispose(); });

  it('answers initialize with ACP version 1, its capabilities and its ways to authenticate', async () => {
    const { running, peer } = await fixture.start(agent);
    const init = await answerWithin(peer.request('initialize', INITIALIZE), ANSWER_MS, 'initialize', running.recentLog) as Record<string, unknown>;

    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities).toEqual(expect.any(Object));
    expect(Array.isArray(init.authMethods)).toBe(true);
    for (const method of init.authMethods as unknown[]) expect(method).toMatchObject({ id: expect.any(String), name: expect.any(String) });
  });

  if (agent.sessionNew === 'session') {
    it('opens a session in the repository without network or credentials', async () => {
      const { running, peer } = await fixture.start(agent);
      await answerWithin(peer.request('initialize', INITIALIZE), ANSWER_MS, 'initialize', running.recentLog);
      const session = await answerWithin(peer.request('session/new', { cwd: fixture.repo, mcpServers: [] }), ANSWER_MS, 'session/new', running.recentLog);

      expect(session).toMatchObject({ sessionId: expect.stringMatching(/\S/) });
    });
  } else {
    it('refuses session/new with ACP\'s auth_required error while it has no credentials', async () => {
      const { running, peer } = await fixture.start(agent);
      await answerWithin(peer.request('initialize', INITIALIZE), ANSWER_MS, 'initialize', running.recentLog);
      const refusal = await answerWithin(peer.request('session/new', { cwd: fixture.repo, mcpServers: [] }).then(
        () => undefined,
        (error: unknown) => error,
      ), ANSWER_MS, 'session/new', running.recentLog);

      expect(refusal).toBeInstanceOf(JsonRpcError);
      expect(refusal).toMatchObject({ code: AUTH_REQUIRED, message: expect.stringMatching(/^Authentication required/) });
    });
  }
});
