// What OpenAI Chat Completions puts on the wire for one scripted answer: the streamed `chat.completion.chunk`s and the
// non-streamed `chat.completion`, built by pure functions so the server around them only frames and sends.

/** The one reply the stand-in gives a request, resolved from a step against the tools that request offers. */
export type ChatReply =
  | { kind: 'text'; text: string; thinking?: string }
  | { kind: 'tool'; callId: string; name: string; arguments: string; text?: string };

export interface ChatUsage { prompt_tokens: number; completion_tokens: number; total_tokens: number }

interface Envelope { id: string; model: string; created: number }

/** The tool names a Chat Completions request offers (`tools[].function.name`, or the older `functions[].name`). */
export function offeredChatTools(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const { tools, functions } = body as { tools?: unknown; functions?: unknown };
  const names: string[] = [];
  if (Array.isArray(tools)) {
    for (const tool of tools) {
      const name = (tool as { function?: { name?: unknown } } | null)?.function?.name;
      if (typeof name === 'string') names.push(name);
    }
  }
  if (Array.isArray(functions)) {
    for (const fn of functions) {
      const name = (fn as { name?: unknown } | null)?.name;
      if (typeof name === 'string') names.push(name);
    }
  }
  return names;
}

/** Whether the request asked for a stream, and for the usage chunk at its end (`stream_options.include_usage`). */
export function streamWanted(body: unknown): { stream: boolean; includeUsage: boolean } {
  const request = (typeof body === 'object' && body !== null ? body : {}) as { stream?: unknown; stream_options?: { include_usage?: unknown } };
  return { stream: request.stream === true, includeUsage: request.stream === true && request.stream_options?.include_usage === true };
}

/** Token counts that grow with what was said, so a client summing them per turn sees plausible, non-zero figures. */
export function usageFor(requestBody: unknown, reply: ChatReply): ChatUsage {
  const prompt_tokens = Math.max(1, Math.ceil(JSON.stringify(requestBody ?? '').length / 4));
  const said = reply.kind === 'text' ? reply.text + (reply.thinking ?? '') : reply.arguments + (reply.text ?? '');
  const completion_tokens = Math.max(1, Math.ceil(said.length / 4));
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

/** Splits `text` into `parts` pieces (fewer when it is short), so clients must join deltas as they would from a real model. */
export function pieces(text: string, parts = 3): string[] {
  if (text.length <= 1) return text ? [text] : [];
  const size = Math.ceil(text.length / Math.min(parts, text.length));
  const out: string[] = [];
  for (let start = 0; start < text.length; start += size) out.push(text.slice(start, start + size));
  return out;
}

function chunk(envelope: Envelope, delta: Record<string, unknown>, finishReason: string | null = null): Record<string, unknown> {
  return { id: envelope.id, object: 'chat.completion.chunk', created: envelope.created, model: envelope.model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] };
}

/** The opening chunk (the assistant's role) and the streamed text so far: also all a cut stream sends before it breaks. */
export function openingChunks(envelope: Envelope, text = ''): Record<string, unknown>[] {
  return [chunk(envelope, { role: 'assistant', content: '' }), ...pieces(text).map((piece) => chunk(envelope, { content: piece }))];
}

/**
 * Every chunk of a streamed reply, in order: role, reasoning (as OpenAI-compatible gateways stream it, in
 * `reasoning_content`), text, the tool call (id and name first, then its arguments in pieces), the finish reason,
 * and the usage chunk with no choices when the request asked for it.
 */
export function replyChunks(envelope: Envelope, reply: ChatReply, usage: ChatUsage | undefined): Record<string, unknown>[] {
  const chunks: Record<string, unknown>[] = [];
  if (reply.kind === 'text') {
    chunks.push(chunk(envelope, { role: 'assistant', content: '' }));
    for (const piece of pieces(reply.thinking ?? '')) chunks.push(chunk(envelope, { reasoning_content: piece }));
    for (const piece of pieces(reply.text)) chunks.push(chunk(envelope, { content: piece }));
    chunks.push(chunk(envelope, {}, 'stop'));
  } else {
    chunks.push(...openingChunks(envelope, reply.text));
    chunks.push(chunk(envelope, { tool_calls: [{ index: 0, id: reply.callId, type: 'function', function: { name: reply.name, arguments: '' } }] }));
    for (const piece of pieces(reply.arguments)) chunks.push(chunk(envelope, { tool_calls: [{ index: 0, function: { arguments: piece } }] }));
    chunks.push(chunk(envelope, {}, 'tool_calls'));
  }
  if (usage) chunks.push({ id: envelope.id, object: 'chat.completion.chunk', created: envelope.created, model: envelope.model, choices: [], usage });
  return chunks;
}

/** The whole reply as one `chat.completion`, for a request that did not ask for a stream. */
export function replyCompletion(envelope: Envelope, reply: ChatReply, usage: ChatUsage): Record<string, unknown> {
  const message = reply.kind === 'text'
    ? { role: 'assistant', content: reply.text, ...(reply.thinking !== undefined && { reasoning_content: reply.thinking }), refusal: null }
    : { role: 'assistant', content: reply.text ?? null, refusal: null, tool_calls: [{ id: reply.callId, type: 'function', function: { name: reply.name, arguments: reply.arguments } }] };
  return {
    id: envelope.id, object: 'chat.completion', created: envelope.created, model: envelope.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: reply.kind === 'text' ? 'stop' : 'tool_calls' }],
    usage,
  };
}

/** An error body in OpenAI's shape, with the `type` and `code` OpenAI gives each status. */
export function errorBody(status: number, message?: string): { error: { message: string; type: string; param: null; code: string | null } } {
  if (status === 429) return { error: { message: message ?? 'Rate limit reached for requests. Please try again later.', type: 'requests', param: null, code: 'rate_limit_exceeded' } };
  if (status === 400) return { error: { message: message ?? 'Invalid request.', type: 'invalid_request_error', param: null, code: null } };
  if (status === 401) return { error: { message: message ?? 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } };
  if (status === 404) return { error: { message: message ?? 'Not found.', type: 'invalid_request_error', param: null, code: 'not_found' } };
  if (status === 503 || status === 529) return { error: { message: message ?? 'The engine is currently overloaded, please try again later.', type: 'server_error', param: null, code: 'overloaded' } };
  return { error: { message: message ?? 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null } };
}
