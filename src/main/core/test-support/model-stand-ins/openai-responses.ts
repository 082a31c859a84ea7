// A stand-in of the OpenAI Responses API on 127.0.0.1, following a test's script: what Codex (or any Responses
// client) pointed at a gateway talks to in tests, with no model service behind it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { breakStream, counted, readJsonBody, sendJson, serveStandIn, startEventStream } from './stand-in-http';
import { pickTool, stepQueue, type ModelRequestRecord, type ModelStep } from './model-script';
import { playWaitsAndFailures, unlessToolNotOffered } from './stand-in-steps';
import { cutEvents, errorBody, offeredResponsesTools, outputItems, replyEvents, responseObject, streamWanted, usageFor, type OfferedTool, type ResponsesEvent, type ResponsesReply } from './openai-responses-wire';

export interface OpenAiResponsesStandInOptions {
  /** One step per `POST …/responses`, in order. */
  steps: readonly ModelStep[];
  /** What every request after the script gets; default: a plain "Done." */
  fallback?: ModelStep;
  /** The model id it reports in answers and lists at `/v1/models`; default `stand-in-responses`. */
  model?: string;
}

export interface OpenAiResponsesStandIn {
  /** `http://127.0.0.1:PORT`, what a sandbox policy's `network` names as `127.0.0.1:PORT`. */
  origin: string;
  /** `http://127.0.0.1:PORT/v1`, what a user puts in OPENAI_BASE_URL or a Codex provider's `base_url`. */
  baseUrl: string;
  port: number;
  model: string;
  /** Every Responses request received, oldest first. */
  requests: ModelRequestRecord[];
  /** Every other request (model lists, probes), so a test can see what else a client asked for. */
  otherRequests: { method: string; path: string }[];
  /** How many Responses requests have not been answered yet (slow steps still waiting). */
  pending(): number;
  close(): Promise<void>;
}

export async function startOpenAiResponsesStandIn(options: OpenAiResponsesStandInOptions): Promise<OpenAiResponsesStandIn> {
  const model = options.model ?? 'stand-in-responses';
  const queue = stepQueue(options.steps, options.fallback);
  const requests: ModelRequestRecord[] = [];
  const otherRequests: { method: string; path: string }[] = [];
  const pending = { count: 0 };
  let answered = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://stand-in').pathname.replace(/\/+$/, '');
    // A base URL with or without `/v1` is how users write it; both reach the same API.
    const isResponses = req.method === 'POST' && /^(\/v1)?\/responses$/.test(path);
    if (!isResponses) otherRequests.push({ method: req.method ?? '', path });
    if (req.method === 'GET' && /^(\/v1)?\/models$/.test(path)) {
      sendJson(res, 200, { object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'stand-in' }] });
      return;
    }
    if (!isResponses) {
      sendJson(res, 404, errorBody(404, `The stand-in serves POST /v1/responses and GET /v1/models, not ${req.method} ${path}.`));
      return;
    }
    const read = await readJsonBody(req, res, (message) => errorBody(400, message));
    if (!read) return;
    const { body } = read;
    const offered = offeredResponsesTools(body);
    requests.push({ path, headers: req.headers, body, offeredTools: offered.map((tool) => tool.name) });
    await counted(pending, () => answer(queue.next(), body, offered, res));
  }

  async function answer(scripted: ModelStep, body: unknown, offered: OfferedTool[], res: ServerResponse): Promise<void> {
    const step = await playWaitsAndFailures(scripted, res, server, errorBody);
    if (!step) return;
    answered += 1;
    const envelope = { id: `resp_standin_${answered}`, model, created: Math.floor(Date.now() / 1000) };
    if (step.kind === 'cut') {
      if (!streamWanted(body)) { res.destroy(); return; }
      startEventStream(res);
      for (const event of cutEvents(envelope, answered, step.text)) res.write(sse(event));
      breakStream(res);
      return;
    }
    const reply = unlessToolNotOffered<ResponsesReply>(res, errorBody, () => (step.kind === 'text'
      ? { kind: 'text', text: step.text, ...(step.thinking !== undefined && { thinking: step.thinking }) }
      : { kind: 'tool', callId: `call_standin_${answered}`, tool: chosenTool(step.tool, offered), input: step.input, ...(step.text !== undefined && { text: step.text }) }));
    if (!reply) return;
    const usage = usageFor(body, reply);
    if (!streamWanted(body)) {
      sendJson(res, 200, responseObject(envelope, 'completed', outputItems(reply, answered), usage));
      return;
    }
    startEventStream(res);
    for (const event of replyEvents(envelope, reply, answered, usage)) res.write(sse(event));
    res.end();
  }

  const server = await serveStandIn(handle, (message) => errorBody(500, message));
  const { port, origin } = server;
  return {
    origin, baseUrl: `${origin}/v1`, port, model, requests, otherRequests,
    pending: () => pending.count,
    close: server.close,
  };
}

function chosenTool(wanted: readonly string[], offered: OfferedTool[]): OfferedTool {
  const name = pickTool(wanted, offered.map((tool) => tool.name));
  return offered.find((tool) => tool.name === name)!;
}

function sse(event: ResponsesEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
