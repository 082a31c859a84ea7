// Answers that are fetch Responses (a redirect, the MCP endpoint's streams) reach the client through the desk's own
// Node adapter as they are made, and stop being made when the client goes; HEAD is answered like GET without a body.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiErrorBody } from '../../../shared/api-error';
import { MCP_PATH } from '../../../shared/mcp';
import { defineRoute } from '../../../shared/routes/route';
import { rawRequest } from '../test-support/desk-harness';
import { createRouter } from './router';
import { createHttpHost, type HttpHost } from './server';

const TOKEN = 'adapter-test-token';
const MCP_TOKEN = 'adapter-test-mcp-token';

/** A stream the test feeds by hand, telling when the server stopped reading it. */
function handFedStream() {
  let feed!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled!: () => void;
  const wasCancelled = new Promise<void>((resolve) => { cancelled = resolve; });
  const stream = new ReadableStream<Uint8Array>({
    start(controller) { feed = controller; },
    cancel() { cancelled(); },
  });
  return { stream, send: (text: string) => feed.enqueue(new TextEncoder().encode(text)), end: () => feed.close(), wasCancelled };
}

let host: HttpHost;
let base: string;
let streams: ReturnType<typeof handFedStream>[] = [];
const seen: { method: string; url: string; accept: string | null; aborted: () => boolean }[] = [];

beforeAll(async () => {
  const route = defineRoute({ method: 'GET', path: '/', family: 'Board API', summary: 'list', responses: { 200: z.unknown() }, error: ApiErrorBody });
  host = createHttpHost({
    router: createRouter().on(route, async () => [200, { listed: true }]),
    security: { token: TOKEN, allowedHosts: [], allowedOrigins: [] },
    eventsSocket: { accept: (_request, socket) => socket.destroy(), close: () => {} },
    log: () => {},
    mcp: {
      async handle(request, token) {
        if (token !== MCP_TOKEN) return undefined;
        seen.push({ method: request.method, url: request.url, accept: request.headers.get('accept'), aborted: () => request.signal.aborted });
        const fed = handFedStream();
        streams.push(fed);
        return new Response(fed.stream, { status: 200, headers: { 'content-type': 'text/event-stream', 'x-session': 'one' } });
      },
    },
  });
  base = `http://127.0.0.1:${(await host.listen(0, '127.0.0.1')).port}`;
});

afterAll(() => host.close());

/** Opens the MCP stream and resolves with the response once its head arrives. */
function openStream(): Promise<{ status: number; headers: Record<string, unknown>; chunks: string[]; next(): Promise<string>; hangUp(): void }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${base}${MCP_PATH}`, { method: 'GET', headers: { authorization: `Bearer ${MCP_TOKEN}`, accept: 'text/event-stream' } }, (response) => {
      const chunks: string[] = [];
      let waiting: ((text: string) => void) | undefined;
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk.toString('utf8'));
        waiting?.(chunk.toString('utf8'));
        waiting = undefined;
      });
      resolve({
        status: response.statusCode ?? 0, headers: response.headers, chunks,
        next: () => new Promise((got) => { waiting = got; }),
        hangUp: () => outgoing.destroy(),
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('a fetch Response answer', () => {
  it('streams to the client chunk by chunk, with its status and headers, before the stream ends', async () => {
    streams = [];
    const client = await openStream();
    expect(client.status).toBe(200);
    expect(client.headers).toMatchObject({ 'content-type': 'text/event-stream', 'x-session': 'one' });
    expect(seen.at(-1)).toMatchObject({ method: 'GET', accept: 'text/event-stream' });
    expect(seen.at(-1)?.url.endsWith(MCP_PATH)).toBe(true);

    const first = client.next();
    streams[0]?.send('data: one\n\n');
    await expect(first).resolves.toBe('data: one\n\n');
    const second = client.next();
    streams[0]?.send('data: two\n\n');
    await expect(second).resolves.toBe('data: two\n\n');
    streams[0]?.end();
  });

  it('stops reading the stream and aborts the request when the client hangs up', async () => {
    streams = [];
    const client = await openStream();
    const first = client.next();
    streams[0]?.send('data: hello\n\n');
    await first;
    client.hangUp();
    await streams[0]?.wasCancelled;
    expect(seen.at(-1)?.aborted()).toBe(true);
  });
});

describe('HEAD', () => {
  it('is answered as GET is, without the body', async () => {
    const got = await rawRequest(base, 'GET', '/', { authorization: `Bearer ${TOKEN}` });
    const head = await rawRequest(base, 'HEAD', '/', { authorization: `Bearer ${TOKEN}` });
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe(got.headers['content-type']);
    expect(head.headers['content-length']).toBe(got.headers['content-length']);
    expect(head.text).toBe('');
    expect(got.json).toEqual({ listed: true });
  });

  it('needs the token like GET', async () => {
    expect((await rawRequest(base, 'HEAD', '/', {})).status).toBe(401);
  });
});
