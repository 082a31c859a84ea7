// The desk's one HTTP server: security checks on every request, then the routes, and the events socket upgrade.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { EVENTS_SUBPROTOCOL } from '../../../shared/events';
import { toHttpError } from './domain-errors';
import type { EventsSocket } from './events-socket';
import { HttpError } from './http-error';
import { PreparedAnswer } from './list-answer';
import type { Principal, Router } from './router';
import type { StaticUi } from './static-ui';
import { bearerTokenOf, hasValidBearer, isAllowedHost, isAllowedOrigin, preflightHeaders, type SecurityConfig } from './security';

export interface HttpHost {
  readonly server: Server;
  /** Resolves with the bound address; rejects with a clear error (e.g. port in use). */
  listen(port: number, host: string): Promise<AddressInfo>;
  close(): Promise<void>;
}

export class ListenError extends Error {
  readonly code = 'listen_failed';
}

export interface HttpHostDeps {
  router: Router;
  security: SecurityConfig;
  eventsSocket: EventsSocket;
  log(error: unknown): void;
  /** The agent a bearer token belongs to, for routes that accept agent tokens; none when left out. */
  resolveAgentToken?(token: string): string | undefined;
  /** The built board at /ui/, served without a token (it carries no data; the token comes in the URL fragment). */
  staticUi?: StaticUi;
}

/** A person typing the desk's address into a browser gets the board instead of a 401. */
function isBrowserVisit(request: IncomingMessage, pathname: string): boolean {
  return pathname === '/' && request.method === 'GET' && request.headers.authorization === undefined
    && (request.headers.accept ?? '').includes('text/html');
}

export function createHttpHost(deps: HttpHostDeps): HttpHost {
  const { router, security } = deps;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const corsHeaders: Record<string, string> = {};
    try {
      const url = requestUrl(request);
      checkHostAndOrigin(request, corsHeaders);
      if (request.method === 'OPTIONS') {
        answerPreflight(request, response);
        return;
      }
      if (await deps.staticUi?.handle(request, response, url.pathname)) return;
      if (isBrowserVisit(request, url.pathname)) {
        response.writeHead(302, { Location: '/ui/' }).end();
        return;
      }
      const { handler, params, principal } = authenticate(request, url.pathname);
      const answer = await handler({ request, response, params, url, principal });
      if (answer?.[1] instanceof PreparedAnswer) sendPrepared(response, answer[1], corsHeaders);
      else if (answer) sendJson(response, answer[0], answer[1], corsHeaders);
    } catch (error) {
      answerError(request, response, error, corsHeaders);
    }
  }

  function answerError(request: IncomingMessage, response: ServerResponse, error: unknown, corsHeaders: Record<string, string>): void {
    const httpError = toHttpError(error);
    if (httpError.status >= 500) deps.log(error);
    // A handler that failed after starting its own answer leaves nothing to say: cut the connection so the client sees it.
    if (response.headersSent) {
      response.destroy();
      return;
    }
    sendJson(response, httpError.status, httpError.body(), { ...corsHeaders, ...httpError.headers });
    // Drain what the client still sends (e.g. after a 413) so it can read the answer before the socket closes.
    if (!request.complete) request.resume();
  }

  /**
   * The desk token opens every route. Otherwise the bearer may be an agent's token, which opens only the
   * routes marked `desk-or-agent`; without a known token the request is refused before the router says
   * whether the path exists.
   */
  function authenticate(request: IncomingMessage, pathname: string): ReturnType<Router['match']> & { principal: Principal } {
    const method = request.method ?? 'GET';
    if (hasValidBearer(request.headers.authorization, security.token)) return { ...router.match(method, pathname), principal: { kind: 'desk' } };
    const presented = bearerTokenOf(request.headers.authorization);
    const agentId = presented === undefined ? undefined : deps.resolveAgentToken?.(presented);
    if (agentId === undefined) throw unauthorized();
    const route = router.match(method, pathname);
    if (route.auth !== 'desk-or-agent') throw new HttpError(403, 'forbidden', `An agent token opens only the /agent/* routes; ${pathname} needs the desk's token.`);
    return { ...route, principal: { kind: 'agent', agentId } };
  }

  /** Host must be ours (DNS rebinding); a browser Origin must be allowed. Adds CORS headers for allowed origins. */
  function checkHostAndOrigin(request: IncomingMessage, corsHeaders: Record<string, string>): void {
    const host = request.headers.host;
    if (!isAllowedHost(host, security.allowedHosts)) {
      throw new HttpError(403, 'forbidden', `Host "${host ?? ''}" is not allowed; use 127.0.0.1, localhost or a name configured with --allow-host.`);
    }
    const origin = request.headers.origin;
    if (origin === undefined) return;
    if (!isAllowedOrigin(origin, host, security.allowedOrigins)) {
      throw new HttpError(403, 'forbidden', `Origin "${origin}" is not allowed; add it with --allow-origin.`);
    }
    Object.assign(corsHeaders, { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' });
  }

  function answerPreflight(request: IncomingMessage, response: ServerResponse): void {
    const origin = request.headers.origin;
    if (origin === undefined || request.headers['access-control-request-method'] === undefined) {
      throw new HttpError(400, 'bad_request', 'OPTIONS is answered only as a CORS preflight (Origin and Access-Control-Request-Method).');
    }
    response.writeHead(204, preflightHeaders(origin));
    response.end();
  }

  function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    try {
      const url = requestUrl(request);
      checkHostAndOrigin(request, {});
      if (url.pathname !== '/api/events') throw new HttpError(404, 'not_found', `No WebSocket at ${url.pathname}.`);
      if (!hasValidBearer(request.headers.authorization ?? bearerFromSubprotocol(request), security.token)) throw unauthorized();
      deps.eventsSocket.accept(request, socket, head);
    } catch (error) {
      const httpError = toHttpError(error);
      if (httpError.status >= 500) deps.log(error);
      const body = JSON.stringify(httpError.body());
      socket.end(`HTTP/1.1 ${httpError.status} ${httpError.code}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    }
  }

  const server = createServer((request, response) => {
    // handle() answers its own failures; this is the last guard, so no request can end the process.
    handle(request, response).catch((error: unknown) => {
      deps.log(error);
      response.destroy();
    });
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    try {
      upgrade(request, socket, head);
    } catch (error) {
      deps.log(error);
      socket.destroy();
    }
  });
  server.on('clientError', answerClientError);
  // Slow or idle clients must not hold the desk's sockets forever.
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;

  return {
    server,
    listen(port, host) {
      return new Promise((resolve, reject) => {
        const onError = (error: NodeJS.ErrnoException) => {
          const reason = error.code === 'EADDRINUSE' ? `port ${port} on ${host} is already in use; choose another with --port`
            : error.code === 'EACCES' ? `not allowed to listen on port ${port}; choose one above 1024 with --port`
            : error.code === 'EADDRNOTAVAIL' ? `${host} is not an address of this machine`
            : error.message;
          reject(new ListenError(`Cannot listen on ${host}:${port}: ${reason}`));
        };
        server.once('error', onError);
        server.listen(port, host, () => {
          server.off('error', onError);
          resolve(server.address() as AddressInfo);
        });
      });
    },
    close() {
      deps.eventsSocket.close();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function unauthorized(): HttpError {
  return new HttpError(401, 'unauthorized', 'Send the desk\'s token as "Authorization: Bearer <token>".', undefined, {
    'WWW-Authenticate': 'Bearer realm="Assignment Desk"',
  });
}

/** Browsers cannot set headers on a WebSocket, so they offer the token as a subprotocol `bearer.<token>`. */
function bearerFromSubprotocol(request: IncomingMessage): string | undefined {
  const offered = (request.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  if (!offered.includes(EVENTS_SUBPROTOCOL)) return undefined;
  const bearer = offered.find((p) => p.startsWith('bearer.'));
  return bearer ? `Bearer ${bearer.slice('bearer.'.length)}` : undefined;
}

/**
 * The request target as a URL. Only origin-form (`/path?query`) is taken: `GET //x` must mean the path `//x`,
 * not the host `x`, and a proxy's absolute-form has no business here.
 */
function requestUrl(request: IncomingMessage): URL {
  const target = request.url ?? '';
  if (!target.startsWith('/')) throw new HttpError(400, 'bad_request', 'The request target must be a path starting with "/".');
  try {
    return new URL(`http://desk.localhost${target}`);
  } catch {
    throw new HttpError(400, 'bad_request', 'The request target is not a valid path.');
  }
}

/** Malformed HTTP (a bad request line or header, an oversized header block, a broken chunk): answer and hang up. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason] = error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large']
    : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Request Timeout']
    : [400, 'Bad Request'];
  const body = JSON.stringify(new HttpError(status, 'bad_request', `Malformed HTTP request (${error.code ?? 'parse error'}).`).body());
  const answer = () => socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
  // Garbage pipelined behind a whole request whose answer is still coming: raw bytes now would land in the middle
  // of that answer, so they wait for it. (Node's own default handler looks at this internal field too.)
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight && inFlight.req.complete && !inFlight.writableFinished) inFlight.once('finish', answer).once('close', () => socket.destroy());
  else answer();
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  response.end(text);
}

/** A body serialized (and maybe compressed) ahead, e.g. a cached list; a 304 carries its headers and nothing else. */
function sendPrepared(response: ServerResponse, answer: PreparedAnswer, headers: Record<string, string>): void {
  response.writeHead(answer.status, {
    ...(answer.status !== 304 && { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(answer.body) }),
    'X-Content-Type-Options': 'nosniff',
    ...headers,
    ...answer.headers,
  });
  response.end(answer.status === 304 ? undefined : answer.body);
}
