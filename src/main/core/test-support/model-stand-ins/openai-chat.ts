// A stand-in of OpenAI Chat Completions on 127.0.0.1, following a test's script: what an agent pointed at an
// OpenAI-compatible gateway (OPENAI_BASE_URL) talks to in tests, with no model service behind it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { breakStream, counted, readJsonBody, sendJson, serveStandIn, startEventStream } from './stand-in-http';
import { errorBody, offeredChatTools, openingChunks, replyChunks, replyCompletion, streamWanted, usageFor, type ChatReply } from './openai-chat-wire';
import { pickTool, stepQueue, type ModelRequestRecord, type ModelStep } from './model-script';
import { playWaitsAndFailures, unlessToolNotOffered } from './stand-in-steps';

export interface OpenAiChatStandInOptions {
  /** One step per `POST /v1/chat/completions`, in order. */
  steps: readonly ModelStep[];
  /** What every request after the script gets; default: a plain "Done." */
  fallback?: ModelStep;
  /** The model id it reports in answers and lists at `/v1/models`; default `stand-in-chat`. */
  model?: string;
  /**
   * Completes a tool's input when the request is answered, for what a test learns only once the agent runs (the
   * task's worktree, where agents that want absolute paths must write); default: the input as scripted.
   */
  bindInput?: (input: Record<string, unknown>) => Record<string, unknown>;
}

export interface OpenAiChatStandIn {
  /** `http://127.0.0.1:PORT`, what a sandbox policy's `network` names as `127.0.0.1:PORT`. */
  origin: string;
  /** `http://127.0.0.1:PORT/v1`, what a user puts in OPENAI_BASE_URL. */
  baseUrl: string;
  port: number;
  model: string;
  /** Every chat request received, oldest first. */
  requests: ModelRequestRecord[];
  /** How many chat requests have not been answered yet (slow steps still waiting). */
  pending(): number;
  close(): Promise<void>;
}

const CHAT_PATH = '/v1/chat/completions';

export async function startOpenAiChatStandIn(options: OpenAiChatStandInOptions): Promise<OpenAiChatStandIn> {
  const model = options.model ?? 'stand-in-chat';
  const queue = stepQueue(options.steps, options.fallback);
  const requests: ModelRequestRecord[] = [];
  const pending = { count: 0 };
  let answered = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://stand-in').pathname.replace(/\/+$/, '');
    if (req.method === 'GET' && path === '/v1/models') {
      sendJson(res, 200, { object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'stand-in' }] });
      return;
    }
    if (req.method !== 'POST' || path !== CHAT_PATH) {
      sendJson(res, 404, errorBody(404, `The stand-in serves POST ${CHAT_PATH} and GET /v1/models, not ${req.method} ${path}.`));
      return;
    }
    const read = await readJsonBody(req, res, (message) => errorBody(400, message));
    if (!read) return;
    const { body } = read;
    const offered = offeredChatTools(body);
    requests.push({ path, headers: req.headers, body, offeredTools: offered });
    await counted(pending, () => answer(queue.next(), body, offered, res));
  }

  async function answer(scripted: ModelStep, body: unknown, offered: string[], res: ServerResponse): Promise<void> {
    const step = await playWaitsAndFailures(scripted, res, server, errorBody);
    if (!step) return;
    const envelope = { id: `chatcmpl-standin-${++answered}`, model, created: Math.floor(Date.now() / 1000) };
    const { stream, includeUsage } = streamWanted(body);
    if (step.kind === 'cut') {
      if (!stream) { res.destroy(); return; }
      startEventStream(res);
      for (const chunk of openingChunks(envelope, step.text)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      breakStream(res);
      return;
    }
    const reply = unlessToolNotOffered<ChatReply>(res, errorBody, () => (step.kind === 'text'
      ? { kind: 'text', text: step.text, ...(step.thinking !== undefined && { thinking: step.thinking }) }
      : { kind: 'tool', callId: `call_standin_${answered}`, name: pickTool(step.tool, offered), arguments: JSON.stringify(options.bindInput ? options.bindInput(step.input) : step.input), ...(step.text !== undefined && { text: step.text }) }));
    if (!reply) return;
    const usage = usageFor(body, reply);
    if (!stream) {
      sendJson(res, 200, replyCompletion(envelope, reply, usage));
      return;
    }
    startEventStream(res);
    for (const chunk of replyChunks(envelope, reply, includeUsage ? usage : undefined)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    res.end('data: [DONE]\n\n');
  }

  const server = await serveStandIn(handle, (message) => errorBody(500, message));
  const { port, origin } = server;
  return {
    origin, baseUrl: `${origin}/v1`, port, model, requests,
    pending: () => pending.count,
    close: server.close,
  };
}
