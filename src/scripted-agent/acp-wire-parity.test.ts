// The scripted agent answers raw ACP lines as an agent built on the ACP SDK's own agent app does: the same lines go to
// both, in memory, and their answers are compared (the SDK one is a reference agent answering like the scripted one).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RequestError, agent, methods, ndJsonStream } from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SCRIPTED_AGENT_INFO, startAcpScriptedAgent } from './acp-scripted-agent';

type Message = Record<string, unknown>;

/** Raw ndjson lines in, parsed lines out, over two in-memory byte pipes. */
class LineClient {
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private readonly received: Message[] = [];
  private readonly waiters: (() => void)[] = [];

  constructor(start: (io: { input: ReadableStream<Uint8Array>; output: WritableStream<Uint8Array> }) => void) {
    const toAgent = new TransformStream<Uint8Array, Uint8Array>();
    const fromAgent = new TransformStream<Uint8Array, Uint8Array>();
    start({ input: toAgent.readable, output: fromAgent.writable });
    this.writer = toAgent.writable.getWriter();
    void (async () => {
      const reader = fromAgent.readable.getReader();
      const decoder = new TextDecoder();
      let buffered = '';
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        buffered += decoder.decode(read.value, { stream: true });
        for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
          this.received.push(JSON.parse(buffered.slice(0, newline)) as Message);
          buffered = buffered.slice(newline + 1);
          for (const wake of this.waiters.splice(0)) wake();
        }
      }
    })();
  }

  async send(line: string | object): Promise<void> {
    await this.writer.write(new TextEncoder().encode(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`));
  }

  /** The next line received that matches, taken out of what was received. */
  async next(matches: (message: Message) => boolean = () => true): Promise<Message> {
    for (;;) {
      const index = this.received.findIndex(matches);
      if (index !== -1) return this.received.splice(index, 1)[0] as Message;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Sends a line and returns the answer to it (by id; id null for protocol errors). */
  async call(line: string | object, id: unknown): Promise<Message> {
    await this.send(line);
    return this.next((message) => 'id' in message && message.id === id && !('method' in message));
  }

  /** Lines received that no call took. */
  leftover(): Message[] {
    return [...this.received];
  }

  close(): Promise<void> {
    return this.writer.close();
  }
}

const exit = (code: number): never => { throw new Error(`the agent tried to exit with ${code}`); };

/** An agent on the SDK's agent app that answers initialize, session/new and session/prompt like the scripted agent. */
function startSdkReference(io: { input: ReadableStream<Uint8Array>; output: WritableStream<Uint8Array> }): void {
  const sessions = new Set<string>();
  agent({ name: 'reference' })
    .onRequest(methods.agent.initialize, () => ({
      protocolVersion: 1,
      agentCapabilities: { loadSession: false, mcpCapabilities: { http: true } },
      agentInfo: { ...SCRIPTED_AGENT_INFO },
      authMethods: [],
    }))
    .onRequest(methods.agent.session.new, () => {
      const sessionId = `reference-${sessions.size}`;
      sessions.add(sessionId);
      return { sessionId };
    })
    .onRequest(methods.agent.session.prompt, ({ params }) => {
      if (!sessions.has(params.sessionId)) throw RequestError.sessionNotFound(params.sessionId);
      return { stopReason: 'end_turn' };
    })
    .onNotification(methods.agent.session.cancel, () => {})
    .connect(ndJsonStream(io.output, io.input));
}

let cwd: string;
let clients: LineClient[] = [];
beforeEach(async () => { cwd = await mkdtemp(join(tmpdir(), 'scripted-wire-')); });
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  await rm(cwd, { recursive: true, force: true });
});

function both(): { ours: LineClient; sdk: LineClient } {
  const ours = new LineClient((io) => startAcpScriptedAgent({ ...io, exit }));
  const sdk = new LineClient(startSdkReference);
  clients = [ours, sdk];
  return { ours, sdk };
}

const initialize = { jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } };

/** The answers of both agents to each line, with session ids the same on both sides. */
/** A raw line whose answer carries `id` (a protocol error's is null). */
interface RawLine { raw: string; id: unknown }

async function answersOf(lines: (string | Message | RawLine)[], options: { initialized?: boolean; onlyCodes?: boolean } = {}): Promise<{ ours: unknown[]; sdk: unknown[] }> {
  const { ours, sdk } = both();
  if (options.initialized !== false) {
    await ours.call(initialize, 'init');
    await sdk.call(initialize, 'init');
  }
  const answers = { ours: [] as unknown[], sdk: [] as unknown[] };
  for (const [index, line] of lines.entries()) {
    const raw = typeof line === 'string' ? { raw: line, id: null } : 'raw' in line ? line as RawLine : { raw: JSON.stringify(line), id: line.id ?? null };
    for (const [side, client] of [['ours', ours], ['sdk', sdk]] as const) {
      const answer = await client.call(raw.raw, raw.id);
      const error = answer.error as Message | undefined;
      answers[side].push(options.onlyCodes && error ? { index, code: error.code, message: error.message } : answer);
    }
  }
  // Each line was answered once, or not at all: nothing else came.
  answers.ours.push({ unasked: ours.leftover() });
  answers.sdk.push({ unasked: sdk.leftover() });
  return answers;
}

describe('the scripted agent on the wire, beside an agent on the ACP SDK', () => {
  it('refuses every request but initialize until initialize is answered, naming the method', async () => {
    const { ours, sdk } = await answersOf([
      { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/tmp', mcpServers: [] } },
      { jsonrpc: '2.0', id: 2, method: 'vendor/unknown', params: {} },
    ], { initialized: false });
    expect(ours).toEqual(sdk);
    expect(ours[0]).toMatchObject({ error: { code: -32600, message: "Invalid request: ACP connection must be initialized before 'session/new'" } });
  });

  it('answers the same initialize, and takes capabilities it cannot read as none offered', async () => {
    const { ours, sdk } = await answersOf([
      { jsonrpc: '2.0', id: 3, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: { fs: 'all', terminal: 'yes' }, _meta: { trace: 'x' } } },
    ], { initialized: false });
    expect(ours).toEqual(sdk);
  });

  it('answers an unknown method with method-not-found naming it in its data', async () => {
    const { ours, sdk } = await answersOf([{ jsonrpc: '2.0', id: 4, method: 'session/set_mode', params: { sessionId: 's', modeId: 'x' } }]);
    expect(ours).toEqual(sdk);
    expect(ours[0]).toMatchObject({ error: { code: -32601, data: { method: 'session/set_mode' } } });
  });

  it('treats a notification method sent as a request as unknown, and ignores a request method sent as a notification', async () => {
    const { ours, sdk } = await answersOf([
      { jsonrpc: '2.0', id: 40, method: 'session/cancel', params: { sessionId: 's' } },
      { jsonrpc: '2.0', id: 41, method: '$/cancel_request', params: { requestId: 40 } },
      // No answer to the notification: the next line's answer is the first to come.
      { raw: '{"jsonrpc":"2.0","method":"session/prompt","params":{"sessionId":"s","prompt":[]}}\n{"jsonrpc":"2.0","id":42,"method":"vendor/after"}', id: 42 },
    ]);
    expect(ours).toEqual(sdk);
    expect(ours.slice(0, 3).map((answer) => (answer as { error: { code: number } }).error.code)).toEqual([-32601, -32601, -32601]);
    expect(ours[3]).toEqual({ unasked: [] });
  });

  it('answers lines that are not JSON-RPC requests with the same protocol errors (id null)', async () => {
    const { ours, sdk } = await answersOf([
      '{not json',
      '[{"jsonrpc":"2.0","id":5,"method":"initialize"}]',
      '5',
      'null',
      '{"id":6,"method":"initialize","params":{"protocolVersion":1}}',
      '{"jsonrpc":"2.0","id":{},"method":"initialize"}',
    ]);
    expect(ours).toEqual(sdk);
    expect(ours.slice(0, -1).map((answer) => (answer as { error: { code: number } }).error.code)).toEqual([-32700, -32600, -32600, -32600, -32600, -32600]);
  });

  it('answers requests with string, numeric and null ids under the same ids', async () => {
    const { ours, sdk } = await answersOf([
      { jsonrpc: '2.0', id: 'seven', method: 'vendor/x' },
      { jsonrpc: '2.0', id: 8.5, method: 'vendor/x' },
      { jsonrpc: '2.0', id: null, method: 'vendor/x' },
    ]);
    expect(ours).toEqual(sdk);
  });

  it('answers params missing or mistyped in the fields it reads with the same invalid-params error and data', async () => {
    const { ours, sdk } = await answersOf([
      { jsonrpc: '2.0', id: 10, method: 'initialize', params: {} },
      { jsonrpc: '2.0', id: 11, method: 'initialize', params: { protocolVersion: '1' } },
      { jsonrpc: '2.0', id: 12, method: 'initialize' },
      { jsonrpc: '2.0', id: 121, method: 'initialize', params: { protocolVersion: 1.5 } },
      { jsonrpc: '2.0', id: 122, method: 'initialize', params: { protocolVersion: 70000 } },
      { jsonrpc: '2.0', id: 123, method: 'initialize', params: { protocolVersion: -1 } },
      { jsonrpc: '2.0', id: 13, method: 'session/new', params: { mcpServers: [] } },
      { jsonrpc: '2.0', id: 14, method: 'session/new', params: { cwd: 5, mcpServers: [] } },
      { jsonrpc: '2.0', id: 15, method: 'session/new', params: { cwd: '/tmp' } },
      { jsonrpc: '2.0', id: 16, method: 'session/new', params: { cwd: '/tmp', mcpServers: 'none' } },
      { jsonrpc: '2.0', id: 17, method: 'session/prompt', params: { sessionId: 's', prompt: 'say hi' } },
      { jsonrpc: '2.0', id: 18, method: 'session/prompt', params: { sessionId: 7, prompt: [] } },
      { jsonrpc: '2.0', id: 19, method: 'session/new', params: [] },
    ]);
    expect(ours).toEqual(sdk);
    expect(ours.slice(0, -1).every((answer) => (answer as { error?: { code: number } }).error?.code === -32602)).toBe(true);
  });

  it('refuses malformed prompt blocks and MCP servers with invalid params too', async () => {
    const { ours, sdk } = await answersOf([
      { jsonrpc: '2.0', id: 20, method: 'session/prompt', params: { sessionId: 's', prompt: [{ type: 'text' }] } },
      { jsonrpc: '2.0', id: 21, method: 'session/prompt', params: { sessionId: 's', prompt: [{ type: 'video', text: 'x' }] } },
      { jsonrpc: '2.0', id: 22, method: 'session/new', params: { cwd: '/tmp', mcpServers: [{ type: 'http', name: 'desk' }] } },
      { jsonrpc: '2.0', id: 23, method: 'session/new', params: { cwd: '/tmp', mcpServers: [{ name: 'tool' }] } },
      { jsonrpc: '2.0', id: 24, method: 'session/new', params: { cwd: '/tmp', mcpServers: [{ type: 'http', name: 'desk', url: 'http://x', headers: [{ name: 'a' }] }] } },
    ], { onlyCodes: true });
    expect(ours).toEqual(sdk);
    expect(ours.slice(0, -1).every((answer) => (answer as { code: number }).code === -32602)).toBe(true);
  });

  it('answers a prompt for a session it does not have with resource-not-found naming the session', async () => {
    const { ours, sdk } = await answersOf([{ jsonrpc: '2.0', id: 30, method: 'session/prompt', params: { sessionId: 'nope', prompt: [{ type: 'text', text: 'say hi' }] } }]);
    expect(ours).toEqual(sdk);
    expect(ours[0]).toMatchObject({ error: { code: -32002, data: { sessionId: 'nope' } } });
  });

  it('opens a session with MCP servers of every kind, null lists counting as empty, and _meta left alone', async () => {
    const mcpServers = [
      { type: 'http', name: 'desk', url: 'http://127.0.0.1:1/mcp', headers: null },
      { type: 'sse', name: 'old', url: 'http://127.0.0.1:1/sse', headers: [{ name: 'a', value: 'b' }] },
      { name: 'tool', command: 'tool', args: null, env: [{ name: 'K', value: 'v' }], _meta: { x: 1 } },
    ];
    const { ours, sdk } = await answersOf([{ jsonrpc: '2.0', id: 31, method: 'session/new', params: { cwd, mcpServers, _meta: { y: 2 } } }]);
    expect(ours[0]).toMatchObject({ result: { sessionId: expect.any(String) } });
    expect(sdk[0]).toMatchObject({ result: { sessionId: expect.any(String) } });
  });
});

describe('the scripted agent cancelling over the wire', () => {
  it('ends a running prompt as cancelled when the client sends $/cancel_request for it', async () => {
    const { ours } = both();
    await ours.call(initialize, 'init');
    const { result } = await ours.call({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd, mcpServers: [] } }, 1);
    const { sessionId } = result as { sessionId: string };
    await ours.send({ jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId, prompt: [{ type: 'text', text: 'say started\nsleep 60000\nsay too late' }] } });
    await ours.next((message) => message.method === 'session/update');
    await ours.send({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 2 } });
    expect(await ours.next((message) => message.id === 2)).toEqual({ jsonrpc: '2.0', id: 2, result: { stopReason: 'cancelled' } });
  });

  it('sends $/cancel_request for its open permission request when the turn is cancelled, and ends the turn at once', async () => {
    const { ours } = both();
    await ours.call(initialize, 'init');
    const { result } = await ours.call({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd, mcpServers: [] } }, 1);
    const { sessionId } = result as { sessionId: string };
    await ours.send({ jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId, prompt: [{ type: 'text', text: 'ask May I?' }] } });
    const asked = await ours.next((message) => message.method === 'session/request_permission');
    await ours.send({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId } });
    expect(await ours.next((message) => message.method === '$/cancel_request')).toEqual({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: asked.id } });
    expect(await ours.next((message) => message.id === 2)).toEqual({ jsonrpc: '2.0', id: 2, result: { stopReason: 'cancelled' } });
  });
});
