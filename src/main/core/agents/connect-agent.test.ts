// The handshake against fake agents over in-memory streams: dialects, versions, logins and continued sessions.
import { describe, expect, it } from 'vitest';
import type { SessionCallbacks } from './agent-session';
import { ACP_PROTOCOL_VERSION, connectAgent } from './connect-agent';
import { createJsonRpcPeer, JsonRpcError, type JsonRpcPeer } from '../../../shared/json-rpc-peer';
import { ndjsonChannel, type MessageChannel } from '../../../shared/ndjson-channel';

/** The desk's channel and a hand-driven fake agent joined by two in-memory byte pipes. */
function pair(): { desk: MessageChannel; agent: JsonRpcPeer } {
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toDesk = new TransformStream<Uint8Array, Uint8Array>();
  return { desk: ndjsonChannel(toAgent.writable, toDesk.readable), agent: createJsonRpcPeer(ndjsonChannel(toDesk.writable, toAgent.readable)) };
}

const callbacks = (updates: unknown[] = [], onUpdate: () => void = () => {}): SessionCallbacks => ({
  onUpdate: (u) => {
    updates.push(u);
    onUpdate();
  },
  handlers: {
    requestPermission: async () => ({ outcome: 'cancelled' }),
    elicit: async () => ({ action: 'cancel' }),
    readTextFile: async () => '',
    writeTextFile: async () => {},
    terminals: { create: async () => ({ terminalId: 't' }), output: () => ({ output: '', truncated: false, exitStatus: null }), waitForExit: async () => ({ exitCode: 0, signal: null }), kill: () => {}, release: () => {} },
  },
});

const options = { dialect: 'auto' as const, cwd: '/w', clientVersion: 'test' };

describe('connectAgent', () => {
  it('offers files, terminals and forms, and opens a session in the worktree', async () => {
    const { desk, agent } = pair();
    let initParams: unknown;
    let newParams: unknown;
    agent.handle('initialize', (params) => { initParams = params; return { protocolVersion: 1, agentCapabilities: {}, authMethods: [] }; });
    agent.handle('session/new', (params) => { newParams = params; return { sessionId: 's1', modes: { currentModeId: 'code', availableModes: [] } }; });
    const session = await connectAgent(desk, options, callbacks());
    expect(initParams).toMatchObject({ protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true, elicitation: { form: {} } } });
    expect(newParams).toEqual({ cwd: '/w', mcpServers: [] });
    expect(session).toMatchObject({ sessionId: 's1', dialect: 'acp', continued: false, features: { modes: { currentModeId: 'code' } } });
  });

  it('offers only the file methods the agent\'s spec names', async () => {
    const { desk, agent } = pair();
    let initParams: unknown;
    agent.handle('initialize', (params) => { initParams = params; return { protocolVersion: 1, agentCapabilities: {}, authMethods: [] }; });
    agent.handle('session/new', () => ({ sessionId: 's1' }));
    await connectAgent(desk, { ...options, fileMethods: { readTextFile: false, writeTextFile: true } }, callbacks());
    expect(initParams).toMatchObject({ clientCapabilities: { fs: { readTextFile: false, writeTextFile: true }, terminal: true } });
  });

  it('switches to the Kandev dialect when the agent answers "1.0"', async () => {
    const { desk, agent } = pair();
    agent.handle('initialize', () => ({ protocolVersion: '1.0', capabilities: { streaming: true } }));
    agent.handle('session/new', () => ({ sessionId: 'k1' }));
    expect(await connectAgent(desk, options, callbacks())).toMatchObject({ sessionId: 'k1', dialect: 'kandev' });
  });

  it('refuses a protocol version it cannot speak', async () => {
    const { desk, agent } = pair();
    agent.handle('initialize', () => ({ protocolVersion: 2 }));
    await expect(connectAgent(desk, options, callbacks())).rejects.toThrow(/speaks protocol version 2/);
  });

  it('names the missing login when the agent requires one', async () => {
    const { desk, agent } = pair();
    agent.handle('initialize', () => ({ protocolVersion: 1, authMethods: [{ id: 'claude-login', name: 'Log in with Claude', description: 'Run claude /login' }] }));
    agent.handle('session/new', () => { throw new JsonRpcError(-32000, 'Authentication required'); });
    await expect(connectAgent(desk, options, callbacks())).rejects.toMatchObject({
      code: 'agent_login_required',
      message: 'The agent needs a login ("Log in with Claude"): Authentication required',
      details: { agentMessage: 'Authentication required', methods: [{ id: 'claude-login', name: 'Log in with Claude', description: 'Run claude /login' }] },
    });
  });

  it('logs in with the configured method before the session', async () => {
    const { desk, agent } = pair();
    const calls: string[] = [];
    agent.handle('initialize', () => ({ protocolVersion: 1, authMethods: [{ id: 'api-key', name: 'API key' }] }));
    agent.handle('authenticate', (params) => { calls.push(`authenticate ${(params as { methodId: string }).methodId}`); return {}; });
    agent.handle('session/new', () => { calls.push('session/new'); return { sessionId: 's' }; });
    await connectAgent(desk, { ...options, authMethod: 'api-key' }, callbacks());
    expect(calls).toEqual(['authenticate api-key', 'session/new']);
  });

  it('continues an earlier session with session/load without recording its replayed history', async () => {
    const { desk, agent } = pair();
    const updates: unknown[] = [];
    let updated: () => void = () => {};
    const firstUpdate = new Promise<void>((resolve) => { updated = resolve; });
    agent.handle('initialize', () => ({ protocolVersion: 1, agentCapabilities: { loadSession: true } }));
    agent.handle('session/load', (params) => {
      void agent.notify('session/update', { sessionId: 'old', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'from before' } } });
      expect(params).toEqual({ cwd: '/w', mcpServers: [], sessionId: 'old' });
      return {};
    });
    const session = await connectAgent(desk, { ...options, continueSessionId: 'old' }, callbacks(updates, () => updated()));
    expect(session).toMatchObject({ sessionId: 'old', continued: true });
    void agent.notify('session/update', { sessionId: 'old', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'new' } } });
    // The pipe keeps order: had the replayed update been recorded, it would have come first.
    await firstUpdate;
    expect(updates).toEqual([{ kind: 'message', role: 'agent', text: 'new' }]);
  });

  it('starts a new session when the agent cannot continue one', async () => {
    const { desk, agent } = pair();
    agent.handle('initialize', () => ({ protocolVersion: 1, agentCapabilities: {} }));
    agent.handle('session/new', () => ({ sessionId: 'fresh' }));
    expect(await connectAgent(desk, { ...options, continueSessionId: 'old' }, callbacks())).toMatchObject({ sessionId: 'fresh', continued: false });
  });

  it('answers unknown agent requests, extensions included, with method-not-found and keeps going', async () => {
    const { desk, agent } = pair();
    agent.handle('initialize', () => ({ protocolVersion: 1, extraField: true }));
    agent.handle('session/new', () => ({ sessionId: 's' }));
    await connectAgent(desk, options, callbacks());
    await expect(agent.request('_vendor/ping', {})).rejects.toMatchObject({ code: -32601 });
  });
});

describe('the protocol version the desk speaks', () => {
  it('is the one the SDK speaks (written out so the SDK loads only with an agent)', async () => {
    const { PROTOCOL_VERSION } = await import('@agentclientprotocol/sdk');
    expect(ACP_PROTOCOL_VERSION).toBe(PROTOCOL_VERSION);
  });
});
