// A stand-in of the Anthropic Messages API on 127.0.0.1: each model request takes the next scripted ModelStep, so a
// real agent (Claude Code behind claude-code-acp / claude-agent-acp) can be pointed at it with ANTHROPIC_BASE_URL.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pickTool, stepQueue, ToolNotOffered, type ModelRequestRecord, type ModelStep } from './model-script';
import { errorBody, messageEvents, roughTokens, blockEvents, messageStartEvent, type AnthropicBlock, type AnthropicMessage } from './anthropic-wire';

/** What the stand-in did with a request: a scripted step, a side request answered aside, a token count, or nothing it knows. */
export type AnthropicAnswerKind = 'step' | 'side' | 'count_tokens' | 'unknown';

export interface AnthropicRequestRecord extends ModelRequestRecord {
  answeredWith: AnthropicAnswerKind;
  /** The step's kind for `step` answers (`tool`, `text`, `fail`, …), after `slow` is unwrapped. */
  step?: ModelStep['kind'];
}

export interface AnthropicStandInOptions {
  steps: readonly ModelStep[];
  /**
   * The text for requests that offer no tools: the agent's small side requests around a turn (a title, a summary, a
   * command's prefix). They take no step, so a script lists only the turn's own requests. Default: "Task".
   */
  sideAnswer?: (body: MessagesBody) => string;
}

export interface AnthropicStandIn {
  /** The base URL an agent is given (`ANTHROPIC_BASE_URL`): `http://127.0.0.1:PORT`. */
  url: string;
  /** `127.0.0.1:PORT`, as a policy's `network` names it. */
  host: string;
  /** Every request, in arrival order. */
  requests: AnthropicRequestRecord[];
  /** Scripted answers (tool steps whose tool was not offered) that went wrong: a test asserts this is empty. */
  problems: string[];
  /** Steps not yet taken. */
  remaining(): number;
  /** Resolves with the first request (already seen or still to come) that `matches`; rejects after `timeoutMs` (default 30 s). */
  waitForRequest(matches: (record: AnthropicRequestRecord) => boolean, timeoutMs?: number): Promise<AnthropicRequestRecord>;
  close(): Promise<void>;
}

/** The parts of a Messages request body the stand-in reads. */
export interface MessagesBody {
  model?: string;
  stream?: boolean;
  tools?: { name?: string }[];
  system?: unknown;
  messages?: unknown[];
}

/** Where a tool step's string input says `{cwd}`, the working directory the agent's request names is put instead. */
const CWD_PATTERN = /(?:Primary working directory|Working directory): ([^\s"\\]+)/;

export async function startAnthropicStandIn(options: AnthropicStandInOptions): Promise<AnthropicStandIn> {
  const queue = stepQueue(options.steps);
  const requests: AnthropicRequestRecord[] = [];
  const problems: string[] = [];
  const waiters: { matches: (record: AnthropicRequestRecord) => boolean; resolve: (record: AnthropicRequestRecord) => void }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let counter = 0;

  const record = (entry: AnthropicRequestRecord) => {
    requests.push(entry);
    for (const waiter of waiters.splice(0)) {
      if (waiter.matches(entry)) waiter.resolve(entry);
      else waiters.push(waiter);
    }
  };

  const answerStep = (step: ModelStep, body: MessagesBody, response: ServerResponse): void => {
    if (step.kind === 'slow') {
      const timer = setTimeout(() => { timers.delete(timer); answerStep(step.then, body, response); }, step.delayMs);
      timers.add(timer);
      return;
    }
    if (step.kind === 'fail') return sendError(response, step.status, step.message ?? `Stand-in failure ${step.status}`);
    if (step.kind === 'cut') return cutAnswer(response, body, step.text ?? 'Let me');
    let blocks: AnthropicBlock[];
    try {
      blocks = stepBlocks(step, body, `toolu_standin_${++counter}`);
    } catch (error) {
      if (!(error instanceof ToolNotOffered)) throw error;
      problems.push(error.message);
      return sendError(response, 400, error.message);
    }
    const message: AnthropicMessage = {
      id: `msg_standin_${++counter}`, type: 'message', role: 'assistant', model: body.model ?? 'claude-stand-in',
      content: blocks, stop_reason: step.kind === 'tool' ? 'tool_use' : 'end_turn', stop_sequence: null,
      usage: { input_tokens: roughTokens(body.messages), output_tokens: roughTokens(blocks) },
    };
    sendMessage(response, body, message);
  };

  const server = createServer((request, response) => {
    void readJson(request).then((body) => {
      const path = (request.url ?? '/').split('?')[0]!;
      const offeredTools = (body.tools ?? []).flatMap((tool) => (typeof tool.name === 'string' ? [tool.name] : []));
      const base = { path, headers: request.headers, body, offeredTools };
      if (request.method === 'POST' && path === '/v1/messages/count_tokens') {
        record({ ...base, answeredWith: 'count_tokens' });
        return sendJson(response, 200, { input_tokens: roughTokens(body.messages) });
      }
      if (request.method !== 'POST' || path !== '/v1/messages') {
        record({ ...base, answeredWith: 'unknown' });
        return sendError(response, 404, `The stand-in does not serve ${request.method} ${path}`);
      }
      if (offeredTools.length === 0) {
        record({ ...base, answeredWith: 'side' });
        return answerStep({ kind: 'text', text: options.sideAnswer?.(body) ?? 'Task' }, body, response);
      }
      const step = queue.next();
      record({ ...base, answeredWith: 'step', step: unwrapSlow(step).kind });
      answerStep(step, body, response);
    }, (error: unknown) => sendError(response, 400, `The stand-in could not read the request body: ${String(error)}`));
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    problems,
    remaining: queue.remaining,
    waitForRequest(matches, timeoutMs = 30_000) {
      const seen = requests.find(matches);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolveWait, reject) => {
        // An agent that never reaches its model fails the test with what the stand-in did see, not a hang.
        const timer = setTimeout(() => {
          timers.delete(timer);
          const index = waiters.indexOf(waiter);
          if (index >= 0) waiters.splice(index, 1);
          reject(new Error(`No matching model request within ${timeoutMs} ms; the stand-in saw ${requests.map((r) => `${r.path} (${r.answeredWith})`).join(', ') || 'none'}`));
        }, timeoutMs);
        timers.add(timer);
        const waiter = { matches, resolve: (record: AnthropicRequestRecord) => { clearTimeout(timer); timers.delete(timer); resolveWait(record); } };
        waiters.push(waiter);
      });
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
    },
  };
}

function unwrapSlow(step: ModelStep): ModelStep {
  return step.kind === 'slow' ? unwrapSlow(step.then) : step;
}

function stepBlocks(step: Extract<ModelStep, { kind: 'tool' | 'text' }>, body: MessagesBody, toolId: string): AnthropicBlock[] {
  if (step.kind === 'text') {
    return [...(step.thinking ? [{ type: 'thinking' as const, thinking: step.thinking, signature: 'stand-in-signature' }] : []), { type: 'text', text: step.text }];
  }
  const name = pickTool(step.tool, (body.tools ?? []).flatMap((tool) => (tool.name ? [tool.name] : [])));
  const cwd = CWD_PATTERN.exec(JSON.stringify([body.system, body.messages]))?.[1];
  const input = JSON.parse(JSON.stringify(step.input), (_key, value: unknown) => (typeof value === 'string' && cwd ? value.replaceAll('{cwd}', cwd) : value)) as Record<string, unknown>;
  return [...(step.text ? [{ type: 'text' as const, text: step.text }] : []), { type: 'tool_use', id: toolId, name, input }];
}

function sendMessage(response: ServerResponse, body: MessagesBody, message: AnthropicMessage): void {
  if (!body.stream) return sendJson(response, 200, message);
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_${message.id}` });
  for (const event of messageEvents(message)) response.write(event);
  response.end();
}

/** Starts an answer and cuts the connection mid-way, as a dropped connection or a crashed gateway would. */
function cutAnswer(response: ServerResponse, body: MessagesBody, text: string): void {
  if (!body.stream) {
    response.socket?.destroy();
    return;
  }
  const message: AnthropicMessage = {
    id: 'msg_standin_cut', type: 'message', role: 'assistant', model: body.model ?? 'claude-stand-in', content: [],
    stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 },
  };
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.write(messageStartEvent(message));
  // The block starts and gets its first delta, then nothing more: no block stop, no message_stop.
  for (const event of blockEvents({ type: 'text', text }, 0).slice(0, 2)) response.write(event);
  // The response's first writes are corked until the next tick; ending the socket after them sends them, then closes.
  const socket = response.socket;
  setImmediate(() => socket?.end());
}

function sendError(response: ServerResponse, status: number, message: string): void {
  // The service says when to retry after a rate limit or overload; agents' back-off reads it.
  const retry: Record<string, string> = status === 429 || status === 529 ? { 'retry-after': '1' } : {};
  sendJson(response, status, errorBody(status, message), { 'x-should-retry': String(status === 429 || status >= 500), ...retry });
}

function sendJson(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(value);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

function readJson(request: IncomingMessage): Promise<MessagesBody> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('error', reject);
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolveBody(text ? (JSON.parse(text) as MessagesBody) : {});
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}
