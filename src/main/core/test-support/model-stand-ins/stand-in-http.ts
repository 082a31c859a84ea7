// The HTTP side every stand-in model server shares: a server on 127.0.0.1 at a free port, JSON and event-stream
// answers, request bodies, waits that end with the server or the client, and a close that leaves nothing running.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInServer {
  port: number;
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /** Resolves after `ms`, or at once when the client goes away or the server closes (a slow step must not outlive it). */
  delay(res: ServerResponse, ms: number): Promise<void>;
  /** A timer the server clears on close (a test's own wait, say). */
  timer(callback: () => void, ms: number): NodeJS.Timeout;
  clearTimer(timer: NodeJS.Timeout): void;
  /** Ends every connection and timer. */
  close(): Promise<void>;
}

/**
 * Serves `handle` on 127.0.0.1 at a free port. A handler that throws answers 500 (or breaks a stream already begun),
 * in the vendor's error shape that `failure` gives.
 */
export async function serveStandIn(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void,
  failure: (message: string) => unknown,
): Promise<StandInServer> {
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    Promise.resolve().then(() => handle(req, res)).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, failure(`The stand-in failed: ${String(error)}`));
      else res.destroy();
    });
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;
  const timer = (callback: () => void, ms: number): NodeJS.Timeout => {
    const handle = setTimeout(() => { timers.delete(handle); callback(); }, ms);
    timers.add(handle);
    return handle;
  };
  const clearTimer = (handle: NodeJS.Timeout) => { clearTimeout(handle); timers.delete(handle); };
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    delay: (res, ms) => new Promise<void>((resolveDelay) => {
      const waiting = timer(resolveDelay, ms);
      res.once('close', () => { clearTimer(waiting); resolveDelay(); });
    }),
    timer,
    clearTimer,
    close: () => new Promise<void>((resolveClose) => {
      for (const handle of timers) clearTimeout(handle);
      timers.clear();
      server.closeAllConnections();
      server.close(() => resolveClose());
    }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

/** Starts a server-sent events answer. */
export function startEventStream(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
}

/** Gives what was written to the socket, then breaks it: the client sees a stream that began and never ended. */
export function breakStream(res: ServerResponse): void {
  res.socket?.end(() => res.destroy());
}

/**
 * The request's body parsed as JSON, or undefined once a 400 in the vendor's shape (`refusal`) has been sent for a
 * body that is not JSON.
 */
export async function readJsonBody(req: IncomingMessage, res: ServerResponse, refusal: (message: string) => unknown): Promise<{ body: unknown } | undefined> {
  const text = await readBody(req);
  try {
    return { body: JSON.parse(text) };
  } catch {
    sendJson(res, 400, refusal(`The request body is not JSON (content-encoding ${req.headers['content-encoding'] ?? 'none'}).`));
    return undefined;
  }
}

/** Runs `work` counted in `pending` while it lasts (a slow step's answer still owed). */
export async function counted<T>(pending: { count: number }, work: () => Promise<T>): Promise<T> {
  pending.count += 1;
  try {
    return await work();
  } finally {
    pending.count -= 1;
  }
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolveBody(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
