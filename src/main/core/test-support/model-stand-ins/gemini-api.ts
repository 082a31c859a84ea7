// A stand-in of the Gemini API (generateContent, streamGenerateContent over SSE, countTokens, model listing) on
// 127.0.0.1, answering each model request with the next scripted `ModelStep`, so Gemini CLI can be run offline.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendJson, serveStandIn, type StandInServer } from './stand-in-http';
import { pickTool, stepQueue, ToolNotOffered, type ModelRequestRecord, type ModelStep } from './model-script';

export interface GeminiStandIn {
  /** What a user would put in `GOOGLE_GEMINI_BASE_URL`: `http://127.0.0.1:PORT`. */
  url: string;
  port: number;
  /** Every request the stand-in answered, in order (model calls and the rest). */
  requests: ModelRequestRecord[];
  /** The model requests that took a step of the script. */
  scripted(): ModelRequestRecord[];
  /** Resolves once `count` requests have taken a step of the script (at once if they already have). */
  scriptedReached(count: number): Promise<void>;
  close(): Promise<void>;
}

export interface GeminiStandInOptions {
  /** What a request gets once the script has run out; default: the text "Done.". */
  fallback?: ModelStep;
  /**
   * Which model requests take a step: by default those offering tools (the agent's turn). Gemini CLI also sends
   * helper requests without tools (e.g. a "next speaker" check); those get `helperAnswer` and leave the script alone.
   */
  takesStep?: (record: ModelRequestRecord) => boolean;
  /** The answer to helper requests: the text of one candidate; default `{}` (an empty JSON object, what JSON helpers parse). */
  helperAnswer?: string;
}

/** Google's status names for the HTTP statuses a model service answers with. */
const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED', 500: 'INTERNAL', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED',
};

const MODEL_PATH = /^\/(v1beta|v1|v1alpha)\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/;

export async function startGeminiStandIn(steps: readonly ModelStep[], options: GeminiStandInOptions = {}): Promise<GeminiStandIn> {
  const queue = stepQueue(steps, options.fallback);
  const requests: ModelRequestRecord[] = [];
  const scripted: ModelRequestRecord[] = [];
  const waiting: { count: number; resolve(): void }[] = [];
  const takesStep = options.takesStep ?? ((record: ModelRequestRecord) => record.offeredTools.length > 0);
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const text = await readBody(request);
    let body: unknown;
    try { body = text ? JSON.parse(text) : undefined; } catch { body = text; }
    const record: ModelRequestRecord = { path: `${url.pathname}${url.search}`, headers: request.headers, body, offeredTools: offeredTools(body) };
    requests.push(record);

    if (request.method === 'GET' && /^\/(v1beta|v1)\/models\/?$/.test(url.pathname)) {
      sendJson(response, 200, { models: [modelInfo('gemini-2.5-pro'), modelInfo('gemini-2.5-flash')] });
      return;
    }
    const modelInfoPath = /^\/(v1beta|v1)\/models\/([^/:]+)$/.exec(url.pathname);
    if (request.method === 'GET' && modelInfoPath) {
      sendJson(response, 200, modelInfo(modelInfoPath[2]!));
      return;
    }
    const match = MODEL_PATH.exec(url.pathname);
    if (request.method !== 'POST' || !match) {
      sendError(response, 404, `The stand-in has no ${request.method} ${url.pathname}; it serves POST /v1beta/models/<model>:generateContent, :streamGenerateContent and :countTokens.`);
      return;
    }
    const [, , model, method] = match;
    if (method === 'countTokens') {
      sendJson(response, 200, { totalTokens: Math.ceil(text.length / 4) });
      return;
    }
    const streamed = method === 'streamGenerateContent';
    if (!takesStep(record)) {
      await answer(response, { kind: 'text', text: options.helperAnswer ?? '{}' }, record, model!, streamed, server);
      return;
    }
    scripted.push(record);
    for (const waiter of waiting.filter((entry) => scripted.length >= entry.count)) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve();
    }
    await answer(response, queue.next(), record, model!, streamed, server);
  }

  const server = await serveStandIn(handle, (message) => errorBody(500, message));
  return {
    url: server.origin, port: server.port, requests,
    scripted: () => [...scripted],
    scriptedReached: (count) => new Promise<void>((resolveReached) => {
      if (scripted.length >= count) resolveReached();
      else waiting.push({ count, resolve: resolveReached });
    }),
    close: server.close,
  };
}

/** The names of the functions a request declares (`tools[].functionDeclarations[].name`). */
export function offeredTools(body: unknown): string[] {
  const tools = (body as { tools?: { functionDeclarations?: { name?: unknown }[] }[] } | undefined)?.tools;
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool) => (Array.isArray(tool.functionDeclarations) ? tool.functionDeclarations : []))
    .flatMap((declaration) => (typeof declaration.name === 'string' ? [declaration.name] : []));
}

async function answer(response: ServerResponse, step: ModelStep, record: ModelRequestRecord, model: string, streamed: boolean, server: Pick<StandInServer, 'delay'>): Promise<void> {
  if (step.kind === 'slow') {
    await server.delay(response, step.delayMs);
    if (response.destroyed) return;
    await answer(response, step.then, record, model, streamed, server);
    return;
  }
  if (step.kind === 'fail') {
    sendError(response, step.status, step.message ?? `The stand-in model failed this request with ${step.status}.`);
    return;
  }
  let parts: Part[];
  try {
    parts = partsFor(step, record);
  } catch (error) {
    // A script asking for a tool the agent does not offer is the test's mistake: say so where the agent logs it.
    if (error instanceof ToolNotOffered) { sendError(response, 400, error.message); return; }
    throw error;
  }
  if (!streamed) {
    if (step.kind === 'cut') { response.destroy(); return; }
    sendJson(response, 200, candidateResponse(parts, model, true, record));
    return;
  }
  const chunks = parts.flatMap((part) => (typeof part.text === 'string' && part.thought !== true ? splitText(part.text).map((text) => [{ text }]) : [[part]]));
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  chunks.forEach((chunk, index) => {
    const last = index === chunks.length - 1;
    response.write(`data: ${JSON.stringify(candidateResponse(chunk, model, last && step.kind !== 'cut', record))}\r\n\r\n`);
  });
  if (step.kind === 'cut') {
    // The stream stops mid-answer: no finishReason, and the connection goes away without a proper end.
    await new Promise<void>((resolveFlush) => response.write('', () => resolveFlush()));
    response.socket?.destroy();
    return;
  }
  response.end();
}

type Part = Record<string, unknown>;

/** The parts of the answer: thinking, text, then the function call. Streamed, the text goes out in a few pieces. */
function partsFor(step: Exclude<ModelStep, { kind: 'slow' } | { kind: 'fail' }>, record: ModelRequestRecord): Part[] {
  const parts: Part[] = [];
  if (step.kind === 'text' && step.thinking) parts.push({ text: step.thinking, thought: true });
  if (step.text) parts.push({ text: step.text });
  if (step.kind === 'tool') parts.push({ functionCall: { name: pickTool(step.tool, record.offeredTools), args: step.input } });
  if (parts.length === 0) parts.push({ text: '' });
  return parts;
}

/** Text cut at word boundaries into up to three pieces, so a streaming client sees several deltas. */
function splitText(text: string): string[] {
  if (!text) return [text];
  const words = text.split(/(?<=\s)/);
  const size = Math.max(1, Math.ceil(words.length / 3));
  const pieces: string[] = [];
  for (let index = 0; index < words.length; index += size) pieces.push(words.slice(index, index + size).join(''));
  return pieces;
}

function candidateResponse(parts: Part[], model: string, final: boolean, record: ModelRequestRecord): Record<string, unknown> {
  const promptTokens = Math.ceil(JSON.stringify(record.body ?? '').length / 4);
  const outputTokens = Math.ceil(JSON.stringify(parts).length / 4);
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(final && { finishReason: 'STOP' }) }],
    usageMetadata: { promptTokenCount: promptTokens, candidatesTokenCount: outputTokens, totalTokenCount: promptTokens + outputTokens },
    modelVersion: model,
    responseId: randomUUID(),
  };
}

function modelInfo(name: string): Record<string, unknown> {
  return {
    name: `models/${name}`, version: '001', displayName: name, inputTokenLimit: 1_048_576, outputTokenLimit: 65_536,
    supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
  };
}

/** An error as Google's APIs write it: `{error: {code, message, status}}`, with RetryInfo on a 429. */
/** Google's error shape, with the retry hint Google sends on 429. */
function errorBody(status: number, message: string): unknown {
  const statusName = STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
  const details = status === 429 ? [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' }] : [];
  return { error: { code: status, message, status: statusName, ...(details.length > 0 && { details }) } };
}

function sendError(response: ServerResponse, status: number, message: string): void {
  sendJson(response, status, errorBody(status, message), { 'content-type': 'application/json; charset=UTF-8' });
}
