// The OpenAI Chat Completions stand-in speaks the wire format an OpenAI client expects: SSE chunks, tool-call deltas, errors.
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelStep } from './model-script';
import { startOpenAiChatStandIn, type OpenAiChatStandIn } from './openai-chat';

const TOOLS = [
  { type: 'function', function: { name: 'read_file', parameters: { type: 'object' } } },
  { type: 'function', function: { name: 'write_file', parameters: { type: 'object' } } },
];

let standIn: OpenAiChatStandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

async function start(steps: ModelStep[]): Promise<OpenAiChatStandIn> {
  standIn = await startOpenAiChatStandIn({ steps });
  return standIn;
}

function chat(server: OpenAiChatStandIn, body: Record<string, unknown>, signal?: AbortSignal): Promise<Response> {
  return fetch(`${server.baseUrl}/chat/completions`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-dummy' },
    body: JSON.stringify({ model: server.model, messages: [{ role: 'user', content: 'hi' }], ...body }), signal,
  });
}

/** The `data:` payloads of an SSE body, `[DONE]` kept as a string, the rest parsed. */
function events(text: string): unknown[] {
  return text.split('\n\n').filter((block) => block.startsWith('data: ')).map((block) => {
    const data = block.slice('data: '.length);
    return data === '[DONE]' ? data : JSON.parse(data);
  });
}

interface Chunk { object: string; choices: { delta: { content?: string; role?: string; reasoning_content?: string; tool_calls?: { index: number; id?: string; function: { name?: string; arguments: string } }[] }; finish_reason: string | null }[]; usage?: { total_tokens: number } }

describe('the OpenAI Chat Completions stand-in', () => {
  it('streams a text answer as chat.completion.chunk deltas that end with stop and [DONE]', async () => {
    const server = await start([{ kind: 'text', text: 'All done here.', thinking: 'Easy.' }]);
    const response = await chat(server, { stream: true });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const received = events(await response.text());
    expect(received.at(-1)).toBe('[DONE]');
    const chunks = received.slice(0, -1) as Chunk[];
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('All done here.');
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.reasoning_content ?? '').join('')).toBe('Easy.');
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
  });

  it('streams a tool call chosen from the offered tools, its arguments in pieces that join into the input', async () => {
    const input = { file_path: '/repo/hello.txt', content: 'hello from the stand-in\n' };
    const server = await start([{ kind: 'tool', tool: ['WriteFile', 'write_file'], input }]);
    const chunks = events(await (await chat(server, { stream: true, tools: TOOLS })).text()).slice(0, -1) as Chunk[];
    const calls = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, id: expect.stringMatching(/\S/), function: { name: 'write_file', arguments: '' } });
    const argumentPieces = calls.slice(1).map((call) => call.function.arguments);
    expect(argumentPieces.length).toBeGreaterThan(1);
    expect(JSON.parse(argumentPieces.join(''))).toEqual(input);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('tool_calls');
    expect(server.requests[0]!.offeredTools).toEqual(['read_file', 'write_file']);
  });

  it('ends the stream with a usage chunk without choices when the request asks for usage', async () => {
    const server = await start([{ kind: 'text', text: 'hi' }]);
    const chunks = events(await (await chat(server, { stream: true, stream_options: { include_usage: true } })).text()).slice(0, -1) as Chunk[];
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) } });
    expect(chunks.at(-1)!.usage!.total_tokens).toBeGreaterThan(0);
  });

  it('answers a request without stream as one chat.completion with the tool call and usage', async () => {
    const server = await start([{ kind: 'tool', tool: ['read_file'], input: { path: 'a.txt' } }]);
    const response = await chat(server, { tools: TOOLS });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      object: 'chat.completion',
      choices: [{ finish_reason: 'tool_calls', message: { role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } }] } }],
      usage: { total_tokens: expect.any(Number) },
    });
  });

  it.each([
    [429, 'rate_limit_exceeded'],
    [500, null],
  ])('fails with %i and an error body in OpenAI\'s shape', async (status, code) => {
    const server = await start([{ kind: 'fail', status }]);
    const response = await chat(server, { stream: true });
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ error: { message: expect.stringMatching(/\S/), type: expect.any(String), param: null, code } });
  });

  it('cuts a stream after it began, so the client never sees its end', async () => {
    const server = await start([{ kind: 'cut', text: 'I was saying' }]);
    const response = await chat(server, { stream: true });
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
    const chunks = events(received) as Chunk[];
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('I was saying');
    expect(received).not.toContain('[DONE]');
    expect(chunks.every((chunk) => chunk.choices[0]?.finish_reason === null)).toBe(true);
  });

  it('holds a slow answer until the client gives up, then lets it go', async () => {
    const server = await start([{ kind: 'slow', delayMs: 600_000, then: { kind: 'text', text: 'late' } }]);
    const abort = new AbortController();
    const request = chat(server, { stream: true }, abort.signal);
    await expect.poll(() => server.pending()).toBe(1);
    abort.abort();
    await expect(request).rejects.toThrow();
    await expect.poll(() => server.pending()).toBe(0);
  });

  it('answers a slow step once its delay has passed', async () => {
    const server = await start([{ kind: 'slow', delayMs: 50, then: { kind: 'text', text: 'late' } }]);
    const response = await chat(server, {});
    expect(await response.json()).toMatchObject({ choices: [{ message: { content: 'late' } }] });
  });

  it('lists its model at /v1/models', async () => {
    const server = await start([]);
    const response = await fetch(`${server.baseUrl}/models`);
    expect(await response.json()).toEqual({ object: 'list', data: [expect.objectContaining({ id: server.model, object: 'model' })] });
  });

  it('answers 400 naming the offered tools when the script asks for a tool the request does not offer', async () => {
    const server = await start([{ kind: 'tool', tool: ['run_shell_command'], input: {} }]);
    const response = await chat(server, { stream: true, tools: TOOLS });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toMatch(/run_shell_command.*read_file, write_file/);
  });

  it('completes a tool\'s input when it answers, with what the test knows by then', async () => {
    let worktree = '/not/yet';
    standIn = await startOpenAiChatStandIn({ steps: [{ kind: 'tool', tool: ['write_file'], input: { file_path: 'hello.txt' } }], bindInput: (input) => ({ file_path: `${worktree}/${String(input.file_path)}` }) });
    worktree = '/work/task';
    const response = await chat(standIn, { tools: TOOLS });
    expect((await response.json()).choices[0].message.tool_calls[0].function.arguments).toBe('{"file_path":"/work/task/hello.txt"}');
  });

  it('answers text "Done." to every request after the script ends', async () => {
    const server = await start([]);
    const response = await chat(server, {});
    expect(await response.json()).toMatchObject({ choices: [{ finish_reason: 'stop', message: { content: 'Done.' } }] });
  });
});
