// The handshake with agents that do not follow the script: an answer written before the question, messages ahead of
// it, and steps that never get an answer (over in-memory streams, with a fake agent writing raw lines).
import { describe, expect, it } from 'vitest';
import { isDeskError } from '../../../shared/desk-error';
import { ndjsonChannel, type MessageChannel } from '../../../shared/ndjson-channel';
import type { SessionCallbacks } from './agent-session';
import { connectAgent } from './connect-agent';
import { isInitializeAnswer } from './initialize-exchange';

/** The desk's channel and the fake agent's raw side: what the desk wrote, one message at a time, and a way to write lines. */
function pair(): { desk: MessageChannel; heard: () => Promise<Record<string, unknown>>; say: (message: object) => Promise<void> } {
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toDesk = new TransformStream<Uint8Array, Uint8Array>();
  const agent = ndjsonChannel(toDesk.writable, toAgent.readable);
  const reader = agent.readable.getReader();
  const writer = agent.writable.getWriter();
  return {
    desk: ndjsonChannel(toAgent.writable, toDesk.readable),
    heard: async () => (await reader.read()).value as Record<string, unknown>,
    say: (message) => writer.write({ jsonrpc: '2.0', ...message }),
  };
}

function callbacks(updates: unknown[] = []): SessionCallbacks {
  return {
    onUpdate: (u) => { updates.push(u); },
    handlers: {
      requestPermission: async () => ({ outcome: 'cancelled' }),
      elicit: async () => ({ action: 'cancel' }),
      readTextFile: async () => '',
      writeTextFile: async () => {},
      terminals: { create: async () => ({ terminalId: 't' }), output: () => ({ output: '', truncated: false, exitStatus: null }), waitForExit: async () => ({ exitCode: 0, signal: null }), kill: () => {}, release: () => {} },
    },
  };
}

const options = { dialect: 'auto' as const, cwd: '/w', clientVersion: 'test' };
const KANDEV_ANSWER = { protocolVersion: '1.0', serverInfo: { name: 'your-agent', version: '1.0.0' }, capabilities: { streaming: true } };

describe('an initialize answer the agent writes before it is asked', () => {
  it('is taken as the answer, as the Kandev example agent (id 1, never answering the request) needs', async () => {
    const { desk, heard, say } = pair();
    await say({ id: 1, result: KANDEV_ANSWER });
    const connecting = connectAgent(desk, options, callbacks());
    expect(await heard()).toMatchObject({ method: 'initialize' });
    const sessionNew = await heard();
    expect(sessionNew).toMatchObject({ method: 'session/new' });
    await say({ id: sessionNew.id as number, result: { sessionId: 'seed' } });
    expect(await connecting).toMatchObject({ sessionId: 'seed', dialect: 'kandev' });
  });

  it('keeps the messages written ahead of the answer for the session', async () => {
    const { desk, heard, say } = pair();
    const updates: unknown[] = [];
    // In-memory pipes hold one line until it is read: the desk must be reading before the second line is written.
    const connecting = connectAgent(desk, options, callbacks(updates));
    await say({ method: 'session/update', params: { type: 'content', data: { text: 'warming up' } } });
    await say({ id: 1, result: KANDEV_ANSWER });
    await heard();
    const sessionNew = await heard();
    await say({ id: sessionNew.id as number, result: { sessionId: 'seed' } });
    await connecting;
    expect(updates).toEqual([{ kind: 'message', role: 'agent', text: 'warming up' }]);
  });

  it('does not take a response without a protocol version for the answer', () => {
    expect(isInitializeAnswer({ jsonrpc: '2.0', id: 1, result: { sessionId: 'x' } })).toBe(false);
    expect(isInitializeAnswer({ jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: 1 } })).toBe(false);
    expect(isInitializeAnswer({ jsonrpc: '2.0', id: 0, error: { code: -32603, message: 'no' } })).toBe(true);
  });
});

describe('a handshake step the agent never answers', () => {
  async function timedOut(work: Promise<unknown>): Promise<{ code: string; message: string; details: unknown }> {
    const error = await work.then(() => undefined, (e: unknown) => e);
    if (!isDeskError(error)) throw new Error(`expected a desk error, got ${String(error)}`);
    return { code: error.code, message: error.message, details: error.details };
  }

  it('fails after the time limit naming initialize, and closes the channel', async () => {
    const { desk } = pair();
    const error = await timedOut(connectAgent(desk, { ...options, handshakeTimeoutMs: 50 }, callbacks()));
    expect(error).toMatchObject({ code: 'agent_handshake_timeout', details: { step: 'initialize', timeoutMs: 50 } });
    expect(error.message).toMatch(/^The agent did not answer initialize within 50 ms\. Check that its command starts an agent speaking ACP/);
    expect(desk.closedWith).toBeDefined();
  });

  it('names session/new when a standard agent answers initialize and then nothing', async () => {
    const { desk, heard, say } = pair();
    const connecting = connectAgent(desk, { ...options, handshakeTimeoutMs: 100 }, callbacks());
    await say({ id: (await heard()).id as number, result: { protocolVersion: 1, agentCapabilities: {} } });
    expect(await timedOut(connecting)).toMatchObject({ code: 'agent_handshake_timeout', details: { step: 'session/new' } });
  });

  it('names authenticate when the login step gets no answer', async () => {
    const { desk, heard, say } = pair();
    const connecting = connectAgent(desk, { ...options, authMethod: 'key', handshakeTimeoutMs: 100 }, callbacks());
    await say({ id: (await heard()).id as number, result: { protocolVersion: 1, authMethods: [{ id: 'key', name: 'Key' }] } });
    expect(await timedOut(connecting)).toMatchObject({ details: { step: 'authenticate' } });
  });

  it('names session/new for a Kandev agent too', async () => {
    const { desk, say } = pair();
    await say({ id: 1, result: KANDEV_ANSWER });
    expect(await timedOut(connectAgent(desk, { ...options, handshakeTimeoutMs: 100 }, callbacks()))).toMatchObject({ details: { step: 'session/new' } });
  });
});
