// The HTTP host stays up whatever a request does: handler failures answer 500 and are logged, bad input answers 4xx.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiErrorBody } from '../../../shared/api-error';
import { defineRoute } from '../../../shared/routes/route';
import { rawRequest } from '../test-support/desk-harness';
import { sendRaw, statusOf } from '../test-support/raw-socket';
import { readMultipartFile } from './multipart-upload';
import { readJsonBody } from './request-body';
import { createRouter } from './router';
import { createHttpHost, type HttpHost } from './server';
import { createStaticUi } from './static-ui';

const TOKEN = 'server-test-token';
const auth = { authorization: `Bearer ${TOKEN}` };

let host: HttpHost;
let base: string;
let port: number;
let uiRoot: string;
const logged: unknown[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  uiRoot = mkdtempSync(join(tmpdir(), 'server-test-ui-'));
  mkdirSync(join(uiRoot, 'assets'));
  writeFileSync(join(uiRoot, 'index.html'), '<!doctype html><title>Board</title>');
  const route = (method: 'GET' | 'POST', path: string) => defineRoute({ method, path, family: 'Board API', summary: path, responses: { 200: z.unknown() }, error: ApiErrorBody });
  const router = createRouter()
    .on(route('GET', '/'), async () => [200, { ok: true }])
    .on(route('GET', '/boom'), async () => { throw new Error('the service broke'); })
    .on(route('GET', '/boom-later'), async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return Promise.reject(new Error('a rejected promise, later'));
    })
    .on(route('GET', '/boom-after-answer'), async ({ response }) => {
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.write('half an answer');
      throw new Error('failed mid-answer');
    })
    .on(route('POST', '/echo'), async ({ request }) => [200, await readJsonBody(request)])
    .on(route('POST', '/upload'), async ({ request }) => {
      const form = await readMultipartFile(request, { fileField: 'file', maxFileBytes: 1024 * 1024 });
      return [200, { size: form.file?.data.length ?? 0 }];
    });
  host = createHttpHost({
    router,
    security: { token: TOKEN, allowedHosts: [], allowedOrigins: [] },
    eventsSocket: { accept: (_request, socket) => socket.end('HTTP/1.1 101 Switching Protocols\r\n\r\n'), close: () => {} },
    log: (error) => logged.push(error),
    staticUi: createStaticUi(uiRoot),
  });
  port = (await host.listen(0, '127.0.0.1')).port;
  base = `http://127.0.0.1:${port}`;
  process.on('unhandledRejection', onUnhandled);
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await host.close();
  rmSync(uiRoot, { recursive: true, force: true });
});

afterEach(async () => {
  // Whatever the test did, the server still answers and nothing escaped as an unhandled rejection.
  const escaped = unhandled.splice(0);
  logged.length = 0;
  expect((await rawRequest(base, 'GET', '/', auth)).status).toBe(200);
  expect(escaped).toEqual([]);
});

describe('a request the server cannot route', () => {
  // Node's HTTP client reads "//" as a host, so these go over a raw socket.
  it('answers GET // with 404 JSON instead of ending the process', async () => {
    const answer = await sendRaw(port, [`GET // HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`]);
    expect(statusOf(answer)).toBe(404);
    expect(answer).toContain('"error":"not_found"');
  });

  it('answers GET // without a token with 401 JSON', async () => {
    const answer = await sendRaw(port, ['GET // HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n']);
    expect(statusOf(answer)).toBe(401);
    expect(answer).toContain('"error":"unauthorized"');
  });

  it('reads //host/path as a path, not as another host', async () => {
    const answer = await sendRaw(port, [`GET //evil/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`]);
    expect(statusOf(answer)).toBe(404);
  });

  it('refuses an absolute-form request target with 400 JSON', async () => {
    const answer = await sendRaw(port, [`GET http://127.0.0.1/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`]);
    expect(statusOf(answer)).toBe(400);
    expect(answer).toContain('"error":"bad_request"');
  });
});

describe('a handler that fails', () => {
  it('answers 500 JSON without internals and logs the reason', async () => {
    const response = await rawRequest(base, 'GET', '/boom', auth);
    expect(response.status).toBe(500);
    expect(response.json).toEqual({ error: 'internal_error', code: 'internal', message: expect.any(String) });
    expect(response.text).not.toContain('the service broke');
    expect(logged).toEqual([expect.objectContaining({ message: 'the service broke' })]);
  });

  it('answers 500 when its promise rejects after an await', async () => {
    const response = await rawRequest(base, 'GET', '/boom-later', auth);
    expect(response.status).toBe(500);
    expect(logged).toEqual([expect.objectContaining({ message: 'a rejected promise, later' })]);
  });

  it('cuts the connection when it fails after starting its own answer, and logs why', async () => {
    await expect(rawRequest(base, 'GET', '/boom-after-answer', auth)).rejects.toThrow();
    expect(logged).toEqual([expect.objectContaining({ message: 'failed mid-answer' })]);
  });
});

describe('a body the server cannot use', () => {
  it('answers 400 JSON for bytes that are not UTF-8', async () => {
    const response = await rawRequest(base, 'POST', '/echo', { ...auth, 'content-type': 'application/json' }, Buffer.from([0x22, 0xff, 0xfe, 0x22]));
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ error: 'bad_request', message: 'The body is not valid UTF-8.' });
  });

  it('survives a client that hangs up mid-body without logging a failure', async () => {
    await sendRaw(port, [`POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`], { hangUp: true });
    expect(logged).toEqual([]);
  });

  it('answers 400 JSON for a multipart form that ends in the middle of a file', async () => {
    const body = '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhalf a fi';
    const response = await rawRequest(base, 'POST', '/upload', { ...auth, 'content-type': 'multipart/form-data; boundary=XYZ' }, body);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ error: 'bad_request' });
  });

  it('survives a client that hangs up in the middle of an upload', async () => {
    const head = `POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: multipart/form-data; boundary=XYZ\r\nContent-Length: 100000\r\n\r\n`;
    await sendRaw(port, [head, '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nsome bytes'], { hangUp: true });
    expect(logged).toEqual([]);
  });
});

describe('paths under /ui/', () => {
  // `%2e%2e` is `..` to the URL parser, so that path leaves /ui/ and needs a token like any other.
  it.each([
    ['/ui/%E0%A4%A', 400], ['/ui/%zz', 400], ['/ui/a%00.html', 400], ['/ui/..%2f..%2fetc%2fpasswd', 404],
    ['/ui/%2e%2e/%2e%2e/etc/passwd', 401], [`/ui/${'a'.repeat(5000)}`, 404], ['/ui/assets', 404], ['/ui/', 200],
  ])('answers GET %s with %i', async (path, status) => {
    const response = await rawRequest(base, 'GET', path, {});
    expect(response.status).toBe(status);
  });
});

describe('malformed HTTP', () => {
  it.each([
    ['a garbage request line', 'HELLO THERE\r\n\r\n'],
    ['a header without a colon', 'GET / HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n'],
    ['two Content-Lengths that disagree', 'POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab'],
    // With the token: the handler is reading the body when the broken chunk arrives (without it, a 401 may come first).
    ['a broken chunk size', `POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nab\r\n`],
  ])('answers %s with 400 JSON and closes the connection', async (_name, bytes) => {
    const answer = await sendRaw(port, [bytes]);
    expect(statusOf(answer)).toBe(400);
    expect(answer).toContain('"error":"bad_request"');
  });

  it('survives a chunked body cut off mid-chunk', async () => {
    const answer = await sendRaw(port, [`POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n{"a":`], { hangUp: true });
    expect(answer).toBe('');
  });

  it.each([
    ['//', 404], ['//api/events', 404], ['/not-events', 404], ['/api/events', 101],
  ])('answers an upgrade to %s with %i', async (path, status) => {
    const answer = await sendRaw(port, [`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`]);
    expect(statusOf(answer)).toBe(status);
  });
});
