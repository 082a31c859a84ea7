// The Anthropic Messages API's wire format for the stand-in: one model answer as a whole message or as the SSE events
// a streaming request receives, and the error bodies. Pure: the server (anthropic-messages.ts) decides what to send.

/** One content block of an assistant message, as the Messages API returns it. */
export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens';

export interface AnthropicMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: AnthropicBlock[];
  stop_reason: StopReason;
  stop_sequence: null;
  usage: { input_tokens: number; output_tokens: number };
}

/** The error `type` Anthropic gives each status, so an agent's retry logic sees what it would see from the service. */
export function errorType(status: number): string {
  if (status === 400) return 'invalid_request_error';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 529) return 'overloaded_error';
  return 'api_error';
}

export function errorBody(status: number, message: string): { type: 'error'; error: { type: string; message: string } } {
  return { type: 'error', error: { type: errorType(status), message } };
}

/** A rough token count (four characters a token), enough for agents that show or budget usage. */
export function roughTokens(value: unknown): number {
  return Math.max(1, Math.ceil(JSON.stringify(value ?? '').length / 4));
}

/** One server-sent event: `event:` names its type, `data:` carries the JSON. */
export function sse(data: { type: string } & Record<string, unknown>): string {
  return `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The SSE events that open a streamed message (no content yet, as the service sends it). */
export function messageStartEvent(message: AnthropicMessage): string {
  return sse({ type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } } });
}

/** The events that stream one block: its start with an empty body, deltas, and its stop. */
export function blockEvents(block: AnthropicBlock, index: number): string[] {
  const events: string[] = [];
  if (block.type === 'text') {
    events.push(sse({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
    for (const piece of pieces(block.text)) events.push(sse({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }));
  } else if (block.type === 'thinking') {
    events.push(sse({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }));
    for (const piece of pieces(block.thinking)) events.push(sse({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } }));
    events.push(sse({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } }));
  } else {
    events.push(sse({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }));
    // The input arrives as JSON text in pieces, which the client must join before parsing, as with the service.
    for (const piece of pieces(JSON.stringify(block.input))) events.push(sse({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } }));
  }
  events.push(sse({ type: 'content_block_stop', index }));
  return events;
}

/** Every event of a whole streamed message, `message_start` to `message_stop`. */
export function messageEvents(message: AnthropicMessage): string[] {
  return [
    messageStartEvent(message),
    ...message.content.flatMap((block, index) => blockEvents(block, index)),
    sse({ type: 'message_delta', delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: message.usage.output_tokens } }),
    sse({ type: 'message_stop' }),
  ];
}

/** Splits text into a few deltas so clients that join deltas are exercised, as with a real stream. */
function pieces(text: string): string[] {
  if (text.length <= 8) return [text];
  const size = Math.ceil(text.length / 3);
  const out: string[] = [];
  for (let start = 0; start < text.length; start += size) out.push(text.slice(start, start + size));
  return out;
}
