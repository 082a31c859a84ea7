// A permission request about a tool call the agent never announced shows the call, once; announced calls are not repeated.
import { describe, expect, it } from 'vitest';
import type { AgentUpdate } from '../../../shared/events';
import { createJsonRpcPeer, type JsonRpcPeer } from '../../../shared/json-rpc-peer';
import { ndjsonChannel, type MessageChannel } from '../../../shared/ndjson-channel';
import type { SessionCallbacks } from './agent-session';
import { connectAgent } from './connect-agent';

function pair(): { desk: MessageChannel; agent: JsonRpcPeer } {
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toDesk = new TransformStream<Uint8Array, Uint8Array>();
  return { desk: ndjsonChannel(toAgent.writable, toDesk.readable), agent: createJsonRpcPeer(ndjsonChannel(toDesk.writable, toAgent.readable)) };
}

/** A desk session with a fake agent; every permission is allowed, every update kept in `updates`. */
async function session(): Promise<{ agent: JsonRpcPeer; updates: AgentUpdate[] }> {
  const { desk, agent } = pair();
  const updates: AgentUpdate[] = [];
  const callbacks: SessionCallbacks = {
    onUpdate: (update) => updates.push(update),
    handlers: {
      requestPermission: async () => ({ outcome: 'selected', optionId: 'allow' }),
      elicit: async () => ({ action: 'cancel' }),
      readTextFile: async () => '',
      writeTextFile: async () => {},
      terminals: { create: async () => ({ terminalId: 't' }), output: () => ({ output: '', truncated: false, exitStatus: null }), waitForExit: async () => ({ exitCode: 0, signal: null }), kill: () => {}, release: () => {} },
    },
  };
  agent.handle('initialize', () => ({ protocolVersion: 1, agentCapabilities: {}, authMethods: [] }));
  agent.handle('session/new', () => ({ sessionId: 's1' }));
  await connectAgent(desk, { dialect: 'auto', cwd: '/w', clientVersion: 'test' }, callbacks);
  return { agent, updates };
}

const OPTIONS = [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }];
const WRITE = { toolCallId: 'c1', status: 'pending', title: 'Writing to hello.txt', kind: 'edit', locations: [{ path: '/w/hello.txt' }], rawInput: { file_path: '/w/hello.txt' } };

describe('a permission request and the tool call it is about', () => {
  it('shows a tool call the agent asks about without having announced it', async () => {
    const { agent, updates } = await session();
    await agent.request('session/request_permission', { sessionId: 's1', toolCall: WRITE, options: OPTIONS });
    expect(updates).toEqual([{ kind: 'tool-call', toolCallId: 'c1', status: 'pending', title: 'Writing to hello.txt', toolKind: 'edit', locations: [{ path: '/w/hello.txt' }], rawInput: { file_path: '/w/hello.txt' } }]);
  });

  it('does not show an announced tool call a second time when the agent asks about it', async () => {
    const { agent, updates } = await session();
    agent.notify('session/update', { sessionId: 's1', update: { sessionUpdate: 'tool_call', ...WRITE } });
    await agent.request('session/request_permission', { sessionId: 's1', toolCall: { toolCallId: 'c1' }, options: OPTIONS });
    expect(updates.filter((update) => update.kind === 'tool-call')).toHaveLength(1);
  });

  it('shows an unannounced tool call once, however often the agent asks about it', async () => {
    const { agent, updates } = await session();
    await agent.request('session/request_permission', { sessionId: 's1', toolCall: WRITE, options: OPTIONS });
    await agent.request('session/request_permission', { sessionId: 's1', toolCall: WRITE, options: OPTIONS });
    expect(updates.filter((update) => update.kind === 'tool-call')).toHaveLength(1);
  });
});
