// The way out of a sandbox without network: an HTTP proxy on a unix socket that tunnels (CONNECT) or forwards
// (absolute-URI requests) only to allowed hosts. It runs in the desk, outside the sandbox, and resolves DNS itself.
import { chmod, lstat, unlink } from 'node:fs/promises';
import { createServer, request as httpRequest, STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { normalizeHost, splitHostPort } from './host-allowlist';

export interface EgressDecision {
  /** Canonical host (see normalizeHost), or the text as sent when it does not parse. */
  host: string;
  port: number;
  allowed: boolean;
}

export interface EgressProxyOptions {
  socketPath: string;
  /** Decides before anything is resolved or connected; a throw counts as a refusal. */
  allow(host: string, port: number): boolean;
  onDecision?(decision: EgressDecision): void;
  /** How long resolving and connecting to an allowed host may take; 15 s unless given. */
  connectTimeoutMs?: number;
}

export interface EgressProxy {
  socketPath: string;
  /** Stops accepting, ends every open tunnel and forwarded request, removes the socket file. */
  close(): Promise<void>;
}

// Headers that describe one hop, not the message: never forwarded (RFC 9110 §7.6.1, plus the proxy ones).
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/**
 * Starts the proxy on `socketPath` (mode 0600). Put the socket in a private directory: between bind and chmod
 * the file has the process umask. A stale socket at the path is replaced; any other file there is an error.
 */
export async function createEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const { socketPath } = options;
  const connectTimeoutMs = options.connectTimeoutMs ?? 15_000;
  const sockets = new Set<Duplex>();
  const track = (socket: Duplex): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  const decide = (rawHost: string, port: number): EgressDecision => {
    const host = normalizeHost(rawHost);
    let allowed = false;
    if (host !== undefined) {
      try {
        allowed = options.allow(host, port) === true;
      } catch {
        allowed = false;
      }
    }
    const decision = { host: host ?? rawHost, port, allowed };
    try {
      options.onDecision?.(decision);
    } catch {
      // A failing logger must not decide anything, nor take the proxy down.
    }
    return decision;
  };

  const server = createServer({ requestTimeout: 0 });
  server.on('connection', (socket: Socket) => {
    track(socket);
    socket.on('error', () => socket.destroy());
  });
  server.on('clientError', (_error, socket) => replyAndClose(socket, 400, 'Malformed request'));
  server.on('upgrade', (_request, socket) => replyAndClose(socket, 400, 'Upgrades are not proxied: use CONNECT host:port'));
  server.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => {
    client.on('error', () => client.destroy());
    const target = splitHostPort(request.url ?? '');
    if (!target || target.port === undefined) return replyAndClose(client, 400, 'CONNECT needs host:port');
    const decision = decide(target.host, target.port);
    if (!decision.allowed) return replyAndClose(client, 403, refusal(decision));
    tunnel(client, head, decision, connectTimeoutMs, track);
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    forward(request, response, decide, connectTimeoutMs, track);
  });

  await removeStaleSocket(socketPath);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // After listening, an error can only concern one connection; never let it escape as an uncaught exception.
  server.on('error', () => undefined);
  try {
    await chmod(socketPath, 0o600);
  } catch (error) {
    server.close();
    throw error;
  }

  let closing: Promise<void> | undefined;
  return {
    socketPath,
    close: () => {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const socket of sockets) socket.destroy();
        await closed;
        await unlink(socketPath).catch(() => undefined);
      })();
      return closing;
    },
  };
}

function refusal(decision: EgressDecision): string {
  return `Network: ${decision.host}:${decision.port} is not in this agent's allowlist`;
}

/** Writes a short plain-text status and ends the connection; a client that never closes is cut off soon after. */
function replyAndClose(socket: Duplex, status: number, message: string): void {
  if (socket.destroyed) return;
  const body = `${message}\n`;
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: text/plain; charset=utf-8\r\n`
    + `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  // Not destroyed at once: closing with unread input would reset the connection and lose the reply.
  setTimeout(() => socket.destroy(), 2_000).unref();
}

function tunnel(client: Duplex, head: Buffer, target: EgressDecision, timeoutMs: number, track: (socket: Duplex) => void): void {
  const upstream = connect({ host: target.host, port: target.port });
  track(upstream);
  let open = false;
  upstream.setTimeout(timeoutMs, () => {
    if (!open) {
      replyAndClose(client, 504, `Network: ${target.host}:${target.port} did not answer`);
      upstream.destroy();
    }
  });
  upstream.once('connect', () => {
    open = true;
    upstream.setTimeout(0);
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', (error: NodeJS.ErrnoException) => {
    if (open) client.destroy();
    else replyAndClose(client, 502, `Network: cannot reach ${target.host}:${target.port} (${error.code ?? 'error'})`);
  });
  upstream.on('close', () => {
    if (open) client.destroy();
  });
  client.on('close', () => upstream.destroy());
}

function forward(
  request: IncomingMessage,
  response: ServerResponse,
  decide: (host: string, port: number) => EgressDecision,
  timeoutMs: number,
  track: (socket: Duplex) => void,
): void {
  const reply = (status: number, message: string): void => {
    response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
    response.end(`${message}\n`);
  };
  const target = parseAbsoluteHttpUrl(request.url ?? '');
  if (!target) return reply(400, 'This is a proxy: send CONNECT host:port or an absolute http:// URI');
  const decision = decide(target.hostname, target.port === '' ? 80 : Number(target.port));
  if (!decision.allowed) return reply(403, refusal(decision));

  const upstream = httpRequest({
    host: decision.host,
    port: decision.port,
    method: request.method,
    path: `${target.pathname}${target.search}`,
    headers: { ...withoutHopByHop(request.headers), host: target.host },
    agent: false,
    timeout: timeoutMs,
  });
  upstream.on('socket', (socket) => track(socket));
  upstream.on('timeout', () => upstream.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
  upstream.on('response', (answer) => {
    upstream.setTimeout(0);
    response.writeHead(answer.statusCode ?? 502, answer.statusMessage, withoutHopByHop(answer.headers));
    answer.pipe(response);
    answer.on('error', () => response.destroy());
  });
  upstream.on('error', (error: NodeJS.ErrnoException) => {
    if (response.headersSent) response.destroy();
    else reply(502, `Network: cannot reach ${decision.host}:${decision.port} (${error.code ?? 'error'})`);
  });
  request.on('error', () => upstream.destroy());
  response.on('close', () => upstream.destroy());
  request.pipe(upstream);
}

/** An `http://host[:port]/path` request target, without userinfo; anything else is not for this proxy. */
function parseAbsoluteHttpUrl(text: string): URL | undefined {
  if (!/^http:\/\//i.test(text)) return undefined;
  try {
    const url = new URL(text);
    return url.username === '' && url.password === '' && url.hostname !== '' ? url : undefined;
  } catch {
    return undefined;
  }
}

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = new Set(String(headers.connection ?? '').toLowerCase().split(',').map((token) => token.trim()));
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && !named.has(name)));
}

async function removeStaleSocket(path: string): Promise<void> {
  const stat = await lstat(path).catch(() => undefined);
  if (!stat) return;
  if (!stat.isSocket()) throw new Error(`${path} exists and is not a socket: refusing to replace it`);
  await unlink(path);
}
