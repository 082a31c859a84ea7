// The OpenAI Responses stand-in speaks the wire format a Responses client (Codex) expects: SSE events, tool calls, errors.
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelStep } from './model-script';
import { startOpenAiResponsesStandIn, type OpenAiResponsesStandIn } from './openai-responses';

// The shapes Codex 0.166 offers: function tools, a freeform custom tool, a built-in.
const TOOLS = [
  { type: 'function', name: 'exec_command', parameters: { type: 'object' } },
  { type: 'custom', name: 'apply_patch', format: { type: 'grammar' } },
  { type: 'local_shell' },
  { type: 'web_search' },
];

let standIn: OpenAiResponsesStandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

async function start(steps: ModelStep[]): Promise<OpenAiResponsesStandIn> {
  standIn = await startOpenAiResponsesStandIn({ steps });
  return standIn;
}

function responses(server: OpenAiResponsesStandIn, body: Record<string, unknown>, path = '/v1/responses'): Promise<Response> {
  return fetch(`${server.origin}${path}`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-dummy' },
    body: JSON.stringify({ model: server.model, input: [{ role: 'user', content: 'hi' }], stream: true, tools: TOOLS, ...body }),
  });
}

interface Event { type: string; sequence_number: number; delta?: string; item?: Record<string, unknown>; response?: { id: string; status: string; usage: { input_tokens: number; output_tokens: number; total_tokens: number } | null } }

/** The SSE blocks of a body: each `event:` name with its parsed `data:`. */
function sseEvents(text: string): { name: string; data: Event }[] {
  return text.split('\n\n').filter((block) => block.trim() !== '').map((block) => {
    const name = /^event: (.*)$/m.exec(block)?.[1] ?? '';
    const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as Event;
    return { name, data };
  });
}

describe('the OpenAI Responses stand-in', () => {
  it('streams a text answer from response.created through output_text deltas to response.completed with usage', async () => {
    const server = await start([{ kind: 'text', text: 'All done here.', thinking: 'Easy one.' }]);
    const response = await responses(server, {});
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = sseEvents(await response.text());
    expect(events.every(({ name, data }) => name === data.type)).toBe(true);
    expect(events.map(({ data }) => data.sequence_number)).toEqual(events.map((_, index) => index));
    expect(events[0]!.name).toBe('response.created');
    const deltas = (type: string) => events.filter(({ name }) => name === type).map(({ data }) => data.delta).join('');
    expect(deltas('response.output_text.delta')).toBe('All done here.');
    expect(deltas('response.reasoning_summary_text.delta')).toBe('Easy one.');
    const done = events.filter(({ name }) => name === 'response.output_item.done').map(({ data }) => data.item!.type);
    expect(done).toEqual(['reasoning', 'message']);
    const completed = events.at(-1)!.data;
    expect(completed.type).toBe('response.completed');
    expect(completed.response).toMatchObject({ status: 'completed', id: events[0]!.data.response!.id });
    expect(completed.response!.usage!.total_tokens).toBe(completed.response!.usage!.input_tokens + completed.response!.usage!.output_tokens);
    expect(completed.response!.usage!.output_tokens).toBeGreaterThan(0);
  });

  it('streams a function call chosen from the offered tools, its arguments in deltas that join into the input', async () => {
    const input = { cmd: 'echo hi > hello.txt' };
    const server = await start([{ kind: 'tool', tool: ['shell', 'exec_command'], input }]);
    const events = sseEvents(await (await responses(server, {})).text());
    const added = events.find(({ name }) => name === 'response.output_item.added')!.data.item!;
    expect(added).toMatchObject({ type: 'function_call', name: 'exec_command', arguments: '', status: 'in_progress' });
    const argumentDeltas = events.filter(({ name }) => name === 'response.function_call_arguments.delta');
    expect(argumentDeltas.length).toBeGreaterThan(1);
    expect(JSON.parse(argumentDeltas.map(({ data }) => data.delta).join(''))).toEqual(input);
    const done = events.find(({ name }) => name === 'response.output_item.done')!.data.item!;
    expect(done).toMatchObject({ type: 'function_call', name: 'exec_command', call_id: added.call_id });
    expect(JSON.parse(done.arguments as string)).toEqual(input);
    expect(server.requests[0]!.offeredTools).toEqual(['exec_command', 'apply_patch', 'local_shell', 'web_search']);
  });

  it('answers a custom tool with a custom_tool_call carrying the free text input', async () => {
    const patch = '*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch\n';
    const server = await start([{ kind: 'tool', tool: ['apply_patch'], input: { input: patch } }]);
    const events = sseEvents(await (await responses(server, {})).text());
    const pieces = events.filter(({ name }) => name === 'response.custom_tool_call_input.delta').map(({ data }) => data.delta).join('');
    expect(pieces).toBe(patch);
    expect(events.find(({ name }) => name === 'response.output_item.done')!.data.item).toMatchObject({ type: 'custom_tool_call', name: 'apply_patch', input: patch });
  });

  it('answers a local_shell request with an exec action', async () => {
    const server = await start([{ kind: 'tool', tool: ['local_shell'], input: { command: ['bash', '-lc', 'ls'] } }]);
    const events = sseEvents(await (await responses(server, {})).text());
    expect(events.find(({ name }) => name === 'response.output_item.done')!.data.item).toMatchObject({ type: 'local_shell_call', action: { type: 'exec', command: ['bash', '-lc', 'ls'] } });
  });

  it('answers a request that does not stream with the whole response object', async () => {
    const server = await start([{ kind: 'text', text: 'Whole.' }]);
    const body = await (await responses(server, { stream: false }, '/responses')).json() as { object: string; status: string; output: { type: string; content: { text: string }[] }[] };
    expect(body).toMatchObject({ object: 'response', status: 'completed' });
    expect(body.output[0]!.content[0]!.text).toBe('Whole.');
  });

  it.each([
    [429, 'requests', 'rate_limit_exceeded'],
    [500, 'server_error', null],
  ])('fails with %i and an error body in OpenAI\'s shape', async (status, type, code) => {
    const server = await start([{ kind: 'fail', status }]);
    const response = await responses(server, {});
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ error: { message: expect.stringMatching(/\S/), type, param: null, code } });
  });

  it('cuts a stream after its first text, before response.completed', async () => {
    const server = await start([{ kind: 'cut', text: 'Halfway' }]);
    const response = await responses(server, {});
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    const outcome = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return 'ended';
        received += decoder.decode(value);
      }
    })().catch(() => 'broken');
    // The chunked body never gets its last chunk: the client reads a broken connection, as when a gateway drops.
    expect(outcome).toBe('broken');
    const events = sseEvents(received);
    expect(events.filter(({ name }) => name === 'response.output_text.delta').map(({ data }) => data.delta).join('')).toBe('Halfway');
    expect(events.map(({ name }) => name)).not.toContain('response.completed');
  });

  it('answers a slow step only after its delay, and counts it as pending meanwhile', async () => {
    const server = await start([{ kind: 'slow', delayMs: 300, then: { kind: 'text', text: 'Late.' } }]);
    const answer = responses(server, {});
    await expect.poll(() => server.pending()).toBe(1);
    const events = sseEvents(await (await answer).text());
    expect(events.at(-1)!.name).toBe('response.completed');
    expect(server.pending()).toBe(0);
  });

  it('refuses a tool step naming no offered tool with a 400 that says so', async () => {
    const server = await start([{ kind: 'tool', tool: ['Write'], input: {} }]);
    const response = await responses(server, {});
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/None of Write is offered.*exec_command/);
  });
});
