// What the desk sends a standard agent passes the ACP SDK's own schemas: the desk's client talks to an agent built on
// the SDK's agent app, which validates every request's params before its handler runs. (The scripted agent no longer
// loads the SDK, so its checks no longer cover the desk's requests.)
import { agent, methods, ndJsonStream, type CancelNotification, type InitializeRequest, type NewSessionRequest, type PromptRequest } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { ndjsonChannel } from '../../../shared/ndjson-channel';
import type { ClientHandlers } from './agent-session';
import { connectAgent } from './connect-agent';

/** The params each handler got: the SDK calls a handler only with params its schema accepted. */
interface Received {
  initialize: InitializeRequest[]; newSession: NewSessionRequest[]; prompt: PromptRequest[]; cancel: CancelNotification[];
  /** Resolves once a prompt has reached its handler. */
  promptArrived: Promise<void>;
}

const handlers: ClientHandlers = {
  requestPermission: async () => ({ outcome: 'cancelled' }),
  elicit: async () => ({ action: 'decline' }),
  readTextFile: async () => '',
  writeTextFile: async () => {},
  terminals: {
    create: async () => ({ terminalId: 't' }),
    output: () => ({ output: '', truncated: false, exitStatus: null }),
    waitForExit: async () => ({ exitCode: 0, signal: null }),
    kill: () => {},
    release: () => {},
  },
};

/** An SDK agent that offers HTTP MCP (so the desk sends its server) and whose prompt waits for session/cancel. */
function startRecordingAgent(io: { input: ReadableStream<Uint8Array>; output: WritableStream<Uint8Array> }): Received {
  let arrived = (): void => {};
  const received: Received = { initialize: [], newSession: [], prompt: [], cancel: [], promptArrived: new Promise((resolve) => { arrived = resolve; }) };
  let cancelled = (): void => {};
  agent({ name: 'recording' })
    .onRequest(methods.agent.initialize, ({ params }) => {
      received.initialize.push(params);
      return { protocolVersion: 1, agentCapabilities: { mcpCapabilities: { http: true } }, authMethods: [] };
    })
    .onRequest(methods.agent.session.new, ({ params }) => {
      received.newSession.push(params);
      return { sessionId: 'recorded' };
    })
    .onRequest(methods.agent.session.prompt, async ({ params }) => {
      received.prompt.push(params);
      const cancel = new Promise<void>((resolve) => { cancelled = resolve; });
      arrived();
      await cancel;
      return { stopReason: 'cancelled' };
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      received.cancel.push(params);
      cancelled();
    })
    .connect(ndJsonStream(io.output, io.input));
  return received;
}

describe("the desk's ACP requests", () => {
  it("pass the SDK's schemas for initialize, session/new (with its MCP server), session/prompt and session/cancel", async () => {
    const toAgent = new TransformStream<Uint8Array, Uint8Array>();
    const toDesk = new TransformStream<Uint8Array, Uint8Array>();
    const received = startRecordingAgent({ input: toAgent.readable, output: toDesk.writable });
    const mcp = { url: 'http://127.0.0.1:9/mcp', headers: [{ name: 'Authorization', value: 'Bearer task-token' }] };
    const session = await connectAgent(ndjsonChannel(toAgent.writable, toDesk.readable), { dialect: 'acp', cwd: '/work/task', clientVersion: 'test', mcp }, { onUpdate: () => {}, handlers });

    const turn = session.prompt('say hello');
    await received.promptArrived;
    session.cancel();

    expect(await turn).toMatchObject({ stopReason: 'cancelled' });
    expect(received.initialize).toEqual([expect.objectContaining({ protocolVersion: 1, clientCapabilities: expect.objectContaining({ terminal: true }) })]);
    expect(received.newSession).toEqual([expect.objectContaining({ cwd: '/work/task', mcpServers: [expect.objectContaining({ type: 'http', url: mcp.url, headers: [expect.objectContaining(mcp.headers[0])] })] })]);
    expect(received.prompt).toEqual([expect.objectContaining({ sessionId: 'recorded', prompt: [expect.objectContaining({ type: 'text', text: 'say hello' })] })]);
    expect(received.cancel).toEqual([expect.objectContaining({ sessionId: 'recorded' })]);
  });
});
