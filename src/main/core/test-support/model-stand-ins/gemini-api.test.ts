// The Gemini API stand-in speaks the wire format Gemini CLI's SDK reads: streamed and whole answers, errors, cut streams.
import { afterEach, describe, expect, it } from 'vitest';
import { startGeminiStandIn, type GeminiStandIn } from './gemini-api';
import type { ModelStep } from './model-script';

const TOOLS = [{ functionDeclarations: [{ name: 'write_file', parameters: { type: 'OBJECT' } }, { name: 'run_shell_command', parameters: { type: 'OBJECT' } }] }];
const turn = { contents: [{ role: 'user', parts: [{ text: 'Write hello.txt' }] }], tools: TOOLS };

let standIn: GeminiStandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

async function serve(steps: ModelStep[]): Promise<GeminiStandIn> {
  standIn = await startGeminiStandIn(steps);
  return standIn;
}

function post(base: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-goog-api-key': 'dummy' }, body: JSON.stringify(body) });
}

/** The JSON of every `data:` event of an SSE body, in order. */
function sseEvents(text: string): Record<string, any>[] { // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read the wire's JSON as it is
  return text.split(/\r?\n\r?\n/).filter((block) => block.startsWith('data: ')).map((block) => JSON.parse(block.slice('data: '.length)));
}

const STREAM = '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse';

describe('the Gemini API stand-in', () => {
  it('streams a function call for the scripted tool the request offers, with a finish reason and usage', async () => {
    const { url } = await serve([{ kind: 'tool', tool: ['Write', 'write_file'], input: { file_path: 'hello.txt', content: 'hi' }, text: 'Writing it.' }]);

    const response = await post(url, STREAM, turn);
    const events = sseEvents(await response.text());

    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const parts = events.flatMap((event) => event.candidates[0].content.parts);
    expect(parts.map((part) => part.text ?? '').join('')).toBe('Writing it.');
    expect(parts.at(-1)).toEqual({ functionCall: { name: 'write_file', args: { file_path: 'hello.txt', content: 'hi' } } });
    expect(events.at(-1)).toMatchObject({ candidates: [{ finishReason: 'STOP' }], usageMetadata: { totalTokenCount: expect.any(Number) } });
    expect(events.slice(0, -1).every((event) => event.candidates[0].finishReason === undefined)).toBe(true);
  });

  it('answers text with its thinking first, as thought parts, in a whole generateContent answer', async () => {
    const { url } = await serve([{ kind: 'text', text: 'All done.', thinking: 'Checking the file.' }]);

    const response = await post(url, '/v1beta/models/gemini-2.5-flash:generateContent', turn);
    const body = await response.json();

    expect(response.status).toBe(200);
    expect(body.candidates[0].content.parts).toEqual([{ text: 'Checking the file.', thought: true }, { text: 'All done.' }]);
    expect(body.candidates[0].finishReason).toBe('STOP');
  });

  it.each([
    [429, 'RESOURCE_EXHAUSTED'],
    [500, 'INTERNAL'],
    [503, 'UNAVAILABLE'],
  ])('fails a request with %i in Google\'s error shape (%s)', async (status, statusName) => {
    const { url } = await serve([{ kind: 'fail', status, message: 'Try later.' }]);

    const response = await post(url, STREAM, turn);

    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ error: { code: status, message: 'Try later.', status: statusName } });
  });

  it('says when to retry a 429, as Google\'s RetryInfo', async () => {
    const { url } = await serve([{ kind: 'fail', status: 429 }]);

    const body = await (await post(url, STREAM, turn)).json();

    expect(body.error.details).toContainEqual({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' });
  });

  it('cuts a stream after its first text, without a finish reason', async () => {
    const { url } = await serve([{ kind: 'cut', text: 'Half an' }]);

    const response = await post(url, STREAM, turn);
    const reader = response.body!.getReader();
    let received = '';
    const ended = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return 'ended';
        received += new TextDecoder().decode(value);
      }
    })();

    await expect(ended).rejects.toThrow(/terminated/);
    const events = sseEvents(received);
    expect(events.flatMap((event) => event.candidates[0].content.parts).map((part) => part.text).join('')).toBe('Half an');
    expect(events.every((event) => event.candidates[0].finishReason === undefined)).toBe(true);
  });

  it('answers a slow step with the step it wraps', async () => {
    const { url } = await serve([{ kind: 'slow', delayMs: 50, then: { kind: 'text', text: 'Late.' } }]);

    const body = await (await post(url, '/v1beta/models/gemini-2.5-flash:generateContent', turn)).json();

    expect(body.candidates[0].content.parts).toEqual([{ text: 'Late.' }]);
  });

  it('leaves the script alone for helper requests that offer no tools', async () => {
    const server = await serve([{ kind: 'text', text: 'The turn\'s answer.' }]);

    const helper = await (await post(server.url, '/v1beta/models/gemini-2.5-flash-lite:generateContent', { contents: turn.contents })).json();
    const main = sseEvents(await (await post(server.url, STREAM, turn)).text());

    expect(helper.candidates[0].content.parts).toEqual([{ text: '{}' }]);
    expect(main.flatMap((event) => event.candidates[0].content.parts).map((part) => part.text).join('')).toBe('The turn\'s answer.');
    expect(server.scripted().map((record) => record.offeredTools)).toEqual([['write_file', 'run_shell_command']]);
  });

  it('tells a waiting test when the script has been reached', async () => {
    const server = await serve([{ kind: 'text', text: 'One.' }, { kind: 'text', text: 'Two.' }]);
    const reached = server.scriptedReached(2);

    await post(server.url, STREAM, turn);
    await post(server.url, STREAM, turn);

    await expect(reached).resolves.toBeUndefined();
    expect(server.scripted()).toHaveLength(2);
  });

  it('refuses with 400 naming the offered tools when the script asks for one the request does not offer', async () => {
    const { url } = await serve([{ kind: 'tool', tool: ['Bash'], input: {} }]);

    const response = await post(url, STREAM, turn);

    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe('None of Bash is offered; the request offers write_file, run_shell_command');
  });

  it('counts tokens and lists models for clients that ask', async () => {
    const { url } = await serve([]);

    const counted = await (await post(url, '/v1beta/models/gemini-2.5-flash:countTokens', turn)).json();
    const listed = await (await fetch(`${url}/v1beta/models`)).json();

    expect(counted.totalTokens).toBeGreaterThan(0);
    expect(listed.models.map((model: { name: string }) => model.name)).toContain('models/gemini-2.5-flash');
  });

  it('answers an unknown path with 404 in Google\'s error shape', async () => {
    const { url } = await serve([]);

    const response = await post(url, '/v1beta/models/gemini-2.5-flash:embedContent', turn);

    expect(response.status).toBe(404);
    expect((await response.json()).error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
  });
});
