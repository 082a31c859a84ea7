// The egress proxy on a unix socket, against real local servers: what it tunnels, forwards, refuses and ends.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server as HttpServer } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEgressProxy, type EgressDecision, type EgressProxy } from './egress-proxy';
import { compileAllowlist, isAllowed } from './host-allowlist';

interface Target { port: number; connections: number; server: Server | HttpServer }

async function listen(server: Server | HttpServer): Promise<Target> {
  const target: Target = { port: 0, connections: 0, server };
  server.on('connection', () => { target.connections += 1; });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target.port = (server.address() as AddressInfo).port;
  return target;
}

let web: Target;
let echo: Target;
let forbidden: Target;
const serverSockets = new Set<Socket>();

beforeAll(async () => {
  web = await listen(createHttpServer((request, response) => {
    response.setHeader('Content-Type', 'text/plain');
    response.end(`hello from ${request.url} via ${request.headers.host}`);
  }));
  echo = await listen(createTcpServer((socket) => {
    serverSockets.add(socket);
    socket.on('error', () => undefined);
    socket.pipe(socket);
  }));
  forbidden = await listen(createTcpServer((socket) => socket.end('should never be reached')));
});

afterAll(async () => {
  for (const socket of serverSockets) socket.destroy();
  await Promise.all([web, echo, forbidden].map((t) => new Promise((resolve) => t.server.close(resolve))));
});

let dir: string;
let proxy: EgressProxy;
let decisions: EgressDecision[];

async function startProxy(): Promise<EgressProxy> {
  dir = mkdtempSync(join(tmpdir(), 'egress-'));
  decisions = [];
  const { rules } = compileAllowlist([`127.0.0.1:${web.port}`, `127.0.0.1:${echo.port}`]);
  proxy = await createEgressProxy({
    socketPath: join(dir, 'proxy.sock'),
    allow: (host, port) => isAllowed(rules, host, port),
    onDecision: (decision) => decisions.push(decision),
  });
  return proxy;
}

afterEach(async () => {
  await proxy.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Reads from `socket` until `text` (everything so far) matches, or the socket closes. */
function readUntil(socket: Socket, done: (text: string) => boolean): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const finish = (): void => {
      socket.off('data', onData);
      resolve(text);
    };
    const onData = (chunk: Buffer): void => {
      text += chunk.toString();
      if (done(text)) finish();
    };
    socket.on('data', onData);
    socket.once('close', finish);
  });
}

async function rawRequest(socketPath: string, text: string): Promise<{ socket: Socket; head: string }> {
  const socket = connect(socketPath);
  socket.on('error', () => undefined);
  socket.write(text);
  const head = await readUntil(socket, (received) => received.includes('\r\n\r\n'));
  return { socket, head };
}

function get(socketPath: string, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ socketPath, path: url, headers: { host: URL.canParse(url) ? new URL(url).host : 'proxy' } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => { body += chunk.toString(); });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('the egress proxy', () => {
  it('listens on a unix socket only its owner may use', async () => {
    const { socketPath } = await startProxy();
    expect(statSync(socketPath).isSocket()).toBe(true);
    expect(statSync(socketPath).mode & 0o777).toBe(0o600);
  });

  it('tunnels CONNECT to an allowed host:port both ways', async () => {
    const { socketPath } = await startProxy();
    const { socket, head } = await rawRequest(socketPath, `CONNECT 127.0.0.1:${echo.port} HTTP/1.1\r\nHost: 127.0.0.1:${echo.port}\r\n\r\n`);
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    const echoed = readUntil(socket, (text) => text === 'ping');
    socket.write('ping');
    expect(await echoed).toBe('ping');
    expect(decisions).toEqual([{ host: '127.0.0.1', port: echo.port, allowed: true }]);
    socket.destroy();
  });

  it('refuses CONNECT to a host:port not in the allowlist with 403, without connecting to it', async () => {
    const { socketPath } = await startProxy();
    const { head } = await rawRequest(socketPath, `CONNECT 127.0.0.1:${forbidden.port} HTTP/1.1\r\n\r\n`);
    expect(head).toMatch(/^HTTP\/1\.1 403 /);
    expect(head).toContain(`127.0.0.1:${forbidden.port} is not in this agent's allowlist`);
    expect(decisions).toEqual([{ host: '127.0.0.1', port: forbidden.port, allowed: false }]);
    expect(forbidden.connections).toBe(0);
  });

  it('refuses a host name that only resolves to an allowed IP', async () => {
    const { socketPath } = await startProxy();
    const { head } = await rawRequest(socketPath, `CONNECT localhost:${echo.port} HTTP/1.1\r\n\r\n`);
    expect(head).toMatch(/^HTTP\/1\.1 403 /);
  });

  it('forwards an absolute-URI GET to an allowed host', async () => {
    const { socketPath } = await startProxy();
    const answer = await get(socketPath, `http://127.0.0.1:${web.port}/hello?x=1`);
    expect(answer).toEqual({ status: 200, body: `hello from /hello?x=1 via 127.0.0.1:${web.port}` });
  });

  it('refuses an absolute-URI GET to a host not in the allowlist, without connecting to it', async () => {
    const { socketPath } = await startProxy();
    const answer = await get(socketPath, `http://127.0.0.1:${forbidden.port}/`);
    expect(answer.status).toBe(403);
    expect(forbidden.connections).toBe(0);
  });

  it('answers malformed and non-proxy requests with 400 and keeps serving', async () => {
    const { socketPath } = await startProxy();
    expect((await rawRequest(socketPath, 'this is not http\r\n\r\n')).head).toMatch(/^HTTP\/1\.1 400 /);
    expect((await rawRequest(socketPath, 'CONNECT 127.0.0.1 HTTP/1.1\r\n\r\n')).head).toMatch(/^HTTP\/1\.1 400 /);
    expect((await get(socketPath, '/relative')).status).toBe(400);
    expect((await get(socketPath, `http://user@127.0.0.1:${web.port}/`)).status).toBe(400);
    expect(decisions).toEqual([]);
    expect((await get(socketPath, `http://127.0.0.1:${web.port}/still`)).status).toBe(200);
  });

  it('answers 502 when an allowed host cannot be reached, and keeps serving', async () => {
    dir = mkdtempSync(join(tmpdir(), 'egress-'));
    const closed = await listen(createTcpServer());
    await new Promise((resolve) => closed.server.close(resolve));
    proxy = await createEgressProxy({ socketPath: join(dir, 'proxy.sock'), allow: () => true });
    const { head } = await rawRequest(proxy.socketPath, `CONNECT 127.0.0.1:${closed.port} HTTP/1.1\r\n\r\n`);
    expect(head).toMatch(/^HTTP\/1\.1 502 /);
    expect((await get(proxy.socketPath, `http://127.0.0.1:${web.port}/`)).status).toBe(200);
  });

  it('treats an allow function that throws as a refusal', async () => {
    dir = mkdtempSync(join(tmpdir(), 'egress-'));
    const seen: EgressDecision[] = [];
    proxy = await createEgressProxy({
      socketPath: join(dir, 'proxy.sock'),
      allow: () => { throw new Error('policy broke'); },
      onDecision: (decision) => seen.push(decision),
    });
    expect((await get(proxy.socketPath, `http://127.0.0.1:${web.port}/`)).status).toBe(403);
    expect(seen).toEqual([{ host: '127.0.0.1', port: web.port, allowed: false }]);
  });

  it('ends every open tunnel on close() and removes its socket', async () => {
    const { socketPath } = await startProxy();
    const { socket, head } = await rawRequest(socketPath, `CONNECT 127.0.0.1:${echo.port} HTTP/1.1\r\n\r\n`);
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    const clientClosed = new Promise((resolve) => socket.once('close', resolve));
    const echoSide = [...serverSockets].at(-1) as Socket;
    const upstreamClosed = new Promise((resolve) => echoSide.once('close', resolve));
    await proxy.close();
    await Promise.all([clientClosed, upstreamClosed]);
    expect(() => statSync(socketPath)).toThrow();
  });
});
