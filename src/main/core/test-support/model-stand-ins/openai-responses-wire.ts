// What the OpenAI Responses API puts on the wire for one scripted answer: the streamed `response.*` events and the
// whole `response` object, built by pure functions so the server around them only frames and sends.

/** How a Responses request offers one tool: a function, a freeform custom tool (Codex's `apply_patch`), or a built-in. */
export interface OfferedTool { name: string; type: 'function' | 'custom' | 'local_shell' | 'builtin' }

/** The one reply the stand-in gives a request, resolved from a step against the tools that request offers. */
export type ResponsesReply =
  | { kind: 'text'; text: string; thinking?: string }
  | { kind: 'tool'; callId: string; tool: OfferedTool; input: Record<string, unknown>; text?: string };

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/** One server-sent event: its `event:` name and its `data:` payload (which repeats the name as `type`). */
export interface ResponsesEvent { type: string; [field: string]: unknown }

interface Envelope { id: string; model: string; created: number }

/**
 * The tools a Responses request offers. Functions and custom tools carry a `name`; built-ins (`local_shell`,
 * `web_search`, …) are named by their `type`, which is also what a script asks for.
 */
export function offeredResponsesTools(body: unknown): OfferedTool[] {
  const tools = (typeof body === 'object' && body !== null ? (body as { tools?: unknown }).tools : undefined);
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool): OfferedTool[] => {
    const { type, name } = (tool ?? {}) as { type?: unknown; name?: unknown };
    if (typeof type !== 'string') return [];
    if ((type === 'function' || type === 'custom') && typeof name === 'string') return [{ name, type }];
    if (type === 'local_shell') return [{ name: type, type }];
    // A `namespace` groups tools under its own name (Codex's sub-agent tools); it is offered by that name.
    return [{ name: type === 'namespace' && typeof name === 'string' ? name : type, type: 'builtin' }];
  });
}

/** Whether the request asked for a stream (Codex always does; a plain SDK call may not). */
export function streamWanted(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
}

/** Token counts that grow with what was said, so a client summing them per turn sees plausible, non-zero figures. */
export function usageFor(requestBody: unknown, reply: ResponsesReply): ResponsesUsage {
  const input = Math.max(1, Math.ceil(JSON.stringify(requestBody ?? '').length / 4));
  const said = reply.kind === 'text' ? reply.text + (reply.thinking ?? '') : JSON.stringify(reply.input) + (reply.text ?? '');
  const reasoning = reply.kind === 'text' && reply.thinking ? Math.ceil(reply.thinking.length / 4) : 0;
  const output = Math.max(1, Math.ceil(said.length / 4));
  return { input_tokens: input, input_tokens_details: { cached_tokens: 0 }, output_tokens: output, output_tokens_details: { reasoning_tokens: reasoning }, total_tokens: input + output };
}

/** OpenAI's error body for a status: the `{error: {message, type, param, code}}` its clients parse. */
export function errorBody(status: number, message?: string): { error: { message: string; type: string; param: null; code: string | null } } {
  const [type, code, fallback] = status === 429
    ? ['requests', 'rate_limit_exceeded', 'Rate limit reached for the stand-in model. Please try again later.']
    : status >= 500
      ? ['server_error', null, 'The server had an error while processing your request. Sorry about that!']
      : ['invalid_request_error', null, `The request was refused with status ${status}.`];
  return { error: { message: message ?? fallback, type, param: null, code } };
}

/** The output items of a reply, complete, in order: reasoning, a message, then the tool call. */
export function outputItems(reply: ResponsesReply, answerNumber: number): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  if (reply.kind === 'text' && reply.thinking !== undefined) items.push(reasoningItem(answerNumber, reply.thinking));
  if (reply.text !== undefined) items.push(messageItem(answerNumber, reply.text));
  if (reply.kind === 'tool') items.push(toolCallItem(reply, answerNumber));
  return items;
}

/** The whole `response` object, as `response.completed` carries it and a non-streamed request receives it. */
export function responseObject(envelope: Envelope, status: 'in_progress' | 'completed', output: Record<string, unknown>[], usage?: ResponsesUsage): Record<string, unknown> {
  return {
    id: envelope.id, object: 'response', created_at: envelope.created, status, model: envelope.model,
    output, parallel_tool_calls: false, error: null, incomplete_details: null, usage: usage ?? null,
  };
}

/** The events of a whole streamed answer, from `response.created` to `response.completed` with usage. */
export function replyEvents(envelope: Envelope, reply: ResponsesReply, answerNumber: number, usage: ResponsesUsage): ResponsesEvent[] {
  const items = outputItems(reply, answerNumber);
  const events: ResponsesEvent[] = openingEvents(envelope);
  items.forEach((item, index) => events.push(...itemEvents(item, index)));
  events.push({ type: 'response.completed', response: responseObject(envelope, 'completed', items, usage) });
  return numbered(events);
}

/** The events a stream begins with, up to a message that has started to say `text`: what a cut stream sends. */
export function cutEvents(envelope: Envelope, answerNumber: number, text?: string): ResponsesEvent[] {
  const events = openingEvents(envelope);
  if (text !== undefined) {
    const item = messageItem(answerNumber, text);
    events.push({ type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', content: [] } });
    events.push({ type: 'response.content_part.added', item_id: item.id, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    for (const delta of pieces(text)) events.push({ type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta });
  }
  return numbered(events);
}

function openingEvents(envelope: Envelope): ResponsesEvent[] {
  const response = responseObject(envelope, 'in_progress', []);
  return [{ type: 'response.created', response }, { type: 'response.in_progress', response }];
}

/** One item streamed: added, its content in deltas, done. */
function itemEvents(item: Record<string, unknown>, index: number): ResponsesEvent[] {
  const id = item.id as string;
  const at = { item_id: id, output_index: index };
  const events: ResponsesEvent[] = [{ type: 'response.output_item.added', output_index: index, item: startedItem(item) }];
  if (item.type === 'message') {
    const text = ((item.content as { text: string }[])[0]!).text;
    events.push({ type: 'response.content_part.added', ...at, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    for (const delta of pieces(text)) events.push({ type: 'response.output_text.delta', ...at, content_index: 0, delta });
    events.push({ type: 'response.output_text.done', ...at, content_index: 0, text });
    events.push({ type: 'response.content_part.done', ...at, content_index: 0, part: { type: 'output_text', text, annotations: [] } });
  } else if (item.type === 'reasoning') {
    const text = ((item.summary as { text: string }[])[0]!).text;
    events.push({ type: 'response.reasoning_summary_part.added', ...at, summary_index: 0, part: { type: 'summary_text', text: '' } });
    for (const delta of pieces(text)) events.push({ type: 'response.reasoning_summary_text.delta', ...at, summary_index: 0, delta });
    events.push({ type: 'response.reasoning_summary_text.done', ...at, summary_index: 0, text });
    events.push({ type: 'response.reasoning_summary_part.done', ...at, summary_index: 0, part: { type: 'summary_text', text } });
  } else if (item.type === 'function_call') {
    const args = item.arguments as string;
    for (const delta of pieces(args)) events.push({ type: 'response.function_call_arguments.delta', ...at, delta });
    events.push({ type: 'response.function_call_arguments.done', ...at, arguments: args });
  } else if (item.type === 'custom_tool_call') {
    const input = item.input as string;
    for (const delta of pieces(input)) events.push({ type: 'response.custom_tool_call_input.delta', ...at, delta });
    events.push({ type: 'response.custom_tool_call_input.done', ...at, input });
  }
  events.push({ type: 'response.output_item.done', output_index: index, item });
  return events;
}

/** An item as `output_item.added` announces it: in progress, its content still empty. */
function startedItem(item: Record<string, unknown>): Record<string, unknown> {
  const started: Record<string, unknown> = { ...item, status: 'in_progress' };
  if (item.type === 'message') started.content = [];
  if (item.type === 'reasoning') started.summary = [];
  if (item.type === 'function_call') started.arguments = '';
  if (item.type === 'custom_tool_call') started.input = '';
  return started;
}

function messageItem(answerNumber: number, text: string): { id: string } & Record<string, unknown> {
  return { type: 'message', id: `msg_standin_${answerNumber}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
}

function reasoningItem(answerNumber: number, text: string): Record<string, unknown> {
  return { type: 'reasoning', id: `rs_standin_${answerNumber}`, summary: [{ type: 'summary_text', text }] };
}

/**
 * The call item for the tool's kind. A custom tool takes free text: the script's `input.input` when it is a string
 * (Codex's `apply_patch` takes the patch itself), else the input as JSON. `local_shell` takes an exec action.
 */
function toolCallItem(reply: Extract<ResponsesReply, { kind: 'tool' }>, answerNumber: number): Record<string, unknown> {
  const { tool, input, callId } = reply;
  if (tool.type === 'custom') {
    return { type: 'custom_tool_call', id: `ctc_standin_${answerNumber}`, call_id: callId, name: tool.name, input: typeof input.input === 'string' ? input.input : JSON.stringify(input), status: 'completed' };
  }
  if (tool.type === 'local_shell') {
    return { type: 'local_shell_call', id: `lsh_standin_${answerNumber}`, call_id: callId, status: 'completed', action: { type: 'exec', env: {}, ...input } };
  }
  return { type: 'function_call', id: `fc_standin_${answerNumber}`, call_id: callId, name: tool.name, arguments: JSON.stringify(input), status: 'completed' };
}

/** Cuts a string into a few pieces, so clients that join deltas are exercised with more than one. */
function pieces(text: string): string[] {
  if (text.length === 0) return [];
  const size = Math.max(1, Math.ceil(text.length / 3));
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

function numbered(events: ResponsesEvent[]): ResponsesEvent[] {
  return events.map((event, index) => ({ ...event, sequence_number: index }));
}
