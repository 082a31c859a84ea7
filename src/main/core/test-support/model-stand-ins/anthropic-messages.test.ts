// The Anthropic stand-in answers as the Messages API does, over real HTTP: streamed and whole messages, errors, cuts.
import { afterEach, describe, expect, it } from 'vitest';
import { startAnthropicStandIn, type AnthropicStandIn } from './anthropic-messages';
import type { ModelStep } from './model-script';

let standIn: AnthropicStandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

async function start(steps: ModelStep[]): Promise<AnthropicStandIn> {
  standIn = await startAnthropicStandIn({ steps });
  return standIn;
}

const TOOLS = [{ name: 'mcp__acp__Write', input_schema: {} }, { name: 'mcp__acp__Bash', input_schema: {} }];

function post(server: AnthropicStandIn, body: Record<string, unknown>, path = '/v1/messages'): Promise<Response> {
  return fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'test' }, body: JSON.stringify(body) });
}

/** The `data` of every event in an SSE body, with the `event:` line checked against its `type`. */
function sseEvents(text: string): { type: string; [key: string]: unknown }[] {
  return text.split('\n\n').filter((chunk) => chunk.trim()).map((chunk) => {
    const [eventLine, dataLine] = chunk.split('\n');
    const data = JSON.parse(dataLine!.replace(/^data: /, '')) as { type: string };
    expect(eventLine).toBe(`event: ${data.type}`);
    return data;
  });
}

describe('the Anthropic Messages stand-in', () => {
  it('streams a tool call as message_start, a tool_use block with its input in JSON deltas, message_delta tool_use and message_stop', async () => {
    const server = await start([{ kind: 'tool', tool: ['Write'], input: { file_path: '/w/hello.txt', content: 'hello from the stand-in\n' } }]);
    const response = await post(server, { model: 'claude-x', stream: true, tools: TOOLS, messages: [{ role: 'user', content: 'write' }] });

    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = sseEvents(await response.text());
    expect(events.map((event) => event.type)).toEqual([
      'message_start', 'content_block_start', ...events.slice(2, -3).map(() => 'content_block_delta'), 'content_block_stop', 'message_delta', 'message_stop',
    ]);
    expect(events[1]).toMatchObject({ content_block: { type: 'tool_use', name: 'mcp__acp__Write', input: {} } });
    const json = events.flatMap((event) => (event.type === 'content_block_delta' ? [(event.delta as { partial_json: string }).partial_json] : [])).join('');
    expect(JSON.parse(json)).toEqual({ file_path: '/w/hello.txt', content: 'hello from the stand-in\n' });
    expect(events.at(-2)).toMatchObject({ delta: { stop_reason: 'tool_use' } });
  });

  it('streams thinking with its signature before the text that ends the turn', async () => {
    const server = await start([{ kind: 'text', thinking: 'The file is written; say so.', text: 'Wrote hello.txt and listed it.' }]);
    const events = sseEvents(await (await post(server, { stream: true, tools: TOOLS, messages: [] })).text());

    const deltas = events.flatMap((event) => (event.type === 'content_block_delta' ? [event.delta as Record<string, string>] : []));
    expect(deltas.filter((delta) => delta.type === 'thinking_delta').map((delta) => delta.thinking).join('')).toBe('The file is written; say so.');
    expect(deltas).toContainEqual({ type: 'signature_delta', signature: expect.any(String) });
    expect(deltas.filter((delta) => delta.type === 'text_delta').map((delta) => delta.text).join('')).toBe('Wrote hello.txt and listed it.');
    expect(events.at(-2)).toMatchObject({ delta: { stop_reason: 'end_turn' } });
  });

  it('answers a request without stream as one whole message', async () => {
    const server = await start([{ kind: 'tool', tool: ['Bash'], input: { command: 'ls' }, text: 'Listing.' }]);
    const response = await post(server, { model: 'claude-x', tools: TOOLS, messages: [] });

    expect(await response.json()).toMatchObject({
      type: 'message', role: 'assistant', model: 'claude-x', stop_reason: 'tool_use',
      content: [{ type: 'text', text: 'Listing.' }, { type: 'tool_use', name: 'mcp__acp__Bash', input: { command: 'ls' } }],
    });
  });

  it('puts the working directory the request names where a tool input says {cwd}', async () => {
    const server = await start([{ kind: 'tool', tool: ['Write'], input: { file_path: '{cwd}/hello.txt', content: 'x' } }]);
    const response = await post(server, { tools: TOOLS, system: [{ type: 'text', text: 'Env:\nWorking directory: /tmp/wt/task-1\nPlatform: linux' }], messages: [] });

    expect((await response.json()).content[0].input.file_path).toBe('/tmp/wt/task-1/hello.txt');
  });

  it.each([
    [429, 'rate_limit_error', '1'],
    [500, 'api_error', null],
    [529, 'overloaded_error', '1'],
  ])('fails with %i and Anthropic\'s %s body', async (status, type, retryAfter) => {
    const server = await start([{ kind: 'fail', status, message: 'scripted' }]);
    const response = await post(server, { stream: true, tools: TOOLS, messages: [] });

    expect(response.status).toBe(status);
    expect(response.headers.get('retry-after')).toBe(retryAfter);
    expect(await response.json()).toEqual({ type: 'error', error: { type, message: 'scripted' } });
  });

  it('cuts a stream after its first text delta, without content_block_stop or message_stop', async () => {
    const server = await start([{ kind: 'cut', text: 'I will now write the whole file' }]);
    const response = await post(server, { stream: true, tools: TOOLS, messages: [] });
    const reader = response.body!.getReader();
    let text = '';
    const failure = await (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return undefined;
          text += new TextDecoder().decode(value);
        }
      } catch (error) {
        return error;
      }
    })();

    // Chunked encoding never finished: the client sees a broken body, or at least no message_stop.
    expect(sseEvents(text).map((event) => event.type)).toEqual(['message_start', 'content_block_start', 'content_block_delta']);
    expect(failure).toBeInstanceOf(Error);
  });

  it('holds a slow step for its delay, then answers', async () => {
    const server = await start([{ kind: 'slow', delayMs: 300, then: { kind: 'text', text: 'late' } }]);
    const pending = post(server, { tools: TOOLS, messages: [] });
    const seen = await server.waitForRequest((record) => record.answeredWith === 'step');
    let answered = false;
    void pending.then(() => { answered = true; });

    expect(seen.step).toBe('text');
    expect(answered).toBe(false);
    expect((await (await pending).json()).content).toEqual([{ type: 'text', text: 'late' }]);
  });

  it('answers requests that offer no tools and token counts without taking a step', async () => {
    const server = await start([{ kind: 'text', text: 'the turn' }]);
    const side = await (await post(server, { messages: [{ role: 'user', content: 'title this' }] })).json();
    const count = await (await post(server, { messages: [{ role: 'user', content: 'count me' }] }, '/v1/messages/count_tokens')).json();
    const turn = await (await post(server, { tools: TOOLS, messages: [] })).json();

    expect(side.content).toEqual([{ type: 'text', text: 'Task' }]);
    expect(count.input_tokens).toBeGreaterThan(0);
    expect(turn.content).toEqual([{ type: 'text', text: 'the turn' }]);
    expect(server.requests.map((record) => record.answeredWith)).toEqual(['side', 'count_tokens', 'step']);
  });

  it('records a tool step whose tool the request does not offer as a problem, and answers 400', async () => {
    const server = await start([{ kind: 'tool', tool: ['Edit'], input: {} }]);
    const response = await post(server, { tools: TOOLS, messages: [] });

    expect(response.status).toBe(400);
    expect(server.problems).toEqual([expect.stringContaining('mcp__acp__Write, mcp__acp__Bash')]);
  });

  it('answers an unknown path 404 in the error shape and records it', async () => {
    const server = await start([]);
    const response = await fetch(`${server.url}/v1/models`);

    expect(response.status).toBe(404);
    expect((await response.json()).error.type).toBe('not_found_error');
    expect(server.requests).toEqual([expect.objectContaining({ path: '/v1/models', answeredWith: 'unknown' })]);
  });
});
