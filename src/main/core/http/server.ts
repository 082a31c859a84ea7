// The desk's one HTTP server: a Hono app built from the route contract, on Node's http server (node-adapter.ts).
// Security checks are middleware over every request, the events socket upgrade included. A request for a route
// without path parameters, asked for exactly (`POST /`, `GET /`), skips the app (direct-routes.ts) and passes the
// same checks (admission.ts) on its way to the same route code (route-answer.ts).
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { apiRoutes } from '../../../shared/routes';
import type { RouteDef } from '../../../shared/routes/route';
import { authenticate, bearerFromSubprotocol, checkHostAndOrigin, isBrowserVisit, NO_CORS, unauthorized, type CorsHeaders } from './admission';
import { createDirectRoutes } from './direct-routes';
import type { EventsSocket } from './events-socket';
import { HttpError } from './http-error';
import { ANSWERED, fetchRequestOf, routingRequest, sendAnswer } from './node-adapter';
import { readJsonBody } from './request-body';
import { answerFailure, errorAnswer, runRoute } from './route-answer';
import { queryObject, type Principal, type RegisteredRoute, type Router } from './router';
import type { StaticUi } from './static-ui';
import { bearerCheck, bearerTokenOf, preflightHeaders, type SecurityConfig } from './security';
import { deskError } from '../../../shared/desk-error';
import { MCP_PATH } from '../../../shared/mcp';
import { RUNNER_PATH_PREFIX } from '../../../shared/runners';
import type { RunnerGate } from '../runners/cluster/runner-gate';

export interface HttpHost {
  readonly server: Server;
  /** Resolves with the bound address; rejects with a clear error (e.g. port in use). */
  listen(port: number, host: string): Promise<AddressInfo>;
  close(): Promise<void>;
}

/** The port is taken or not ours to take: the host says so in one line. */
const listenFailed = (message: string) => deskError('unavailable', 'listen_failed', message);

export interface HttpHostDeps {
  router: Router;
  security: SecurityConfig;
  eventsSocket: EventsSocket;
  log(error: unknown): void;
  /** The agent a bearer token belongs to, for routes that accept agent tokens; none when left out. */
  resolveAgentToken?(token: string): string | undefined;
  /** The built board at /ui/, served without a token (it carries no data; the token comes in the URL fragment). */
  staticUi?: StaticUi;
  /**
   * The MCP server for agents at /mcp: opened only by a running task's own MCP token (never by the desk's token or
   * an agent token), and that token opens nothing else.
   */
  mcp?: { handle(request: Request, token: string, body: () => Promise<unknown>): Promise<Response | undefined> };
  /** The cluster runner's door at /runner/<task>/ (git and the agent's connection), opened by a run's own token only. */
  runnerGate?: Pick<RunnerGate, 'handle' | 'upgrade'>;
  /** Tests: hold every JSON answer to the schema its route declares; a mismatch answers 500 and is logged. */
  checkAnswers?: boolean;
}

/** What the app sees of the Node request: the request itself, and its answer or (for an upgrade) its socket. */
interface Bindings {
  incoming: IncomingMessage;
  outgoing?: ServerResponse;
  upgrade?: { socket: Duplex; head: Buffer };
}
interface Variables { principal: Principal; cors: CorsHeaders; url: URL }
type Env = { Bindings: Bindings; Variables: Variables };

export function createHttpHost(deps: HttpHostDeps): HttpHost {
  const app = createApp(deps);
  const direct = createDirectRoutes(deps.router.routes);
  const answerDirectly = directAnswerer(deps);
  // Handlers read bodies from the Node request themselves and mostly answer on Node's response (ANSWERED).
  const listener = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const route = direct.match(request);
    if (route) return answerDirectly(route, request, response);
    await sendAnswer(await app.fetch(routingRequest(request), { incoming: request, outgoing: response }), response);
  };

  async function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    let answer: Response;
    try {
      requestUrl(request); // an unusable request target is refused (400) before anything routes it
      answer = await app.fetch(routingRequest(request), { incoming: request, upgrade: { socket, head } });
    } catch (error) {
      answer = errorAnswer(error, deps.log, NO_CORS, undefined);
    }
    if (answer === ANSWERED) return;
    const body = await answer.text();
    socket.end(`HTTP/1.1 ${answer.status} ${answer.statusText || 'Refused'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }

  const server = createServer((request, response) => {
    // The app answers its own failures; this is the last guard, so no request can end the process.
    listener(request, response).catch((error: unknown) => {
      deps.log(error);
      response.destroy();
    });
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgrade(request, socket, head).catch((error: unknown) => {
      deps.log(error);
      socket.destroy();
    });
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
          reject(listenFailed(`Cannot listen on ${host}:${port}: ${reason}`));
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

/** The Hono app: the security middleware, then the contract's routes, the events socket, 404/405 and the error answer. */
function createApp(deps: HttpHostDeps): Hono<Env> {
  const app = new Hono<Env>();
  app.use('*', securityMiddleware(deps));
  app.get(apiRoutes.events.path, (c) => {
    const upgrade = c.env.upgrade;
    if (!upgrade) throw new HttpError(404, 'not_found', `${apiRoutes.events.path} is a WebSocket: connect with "Upgrade: websocket".`);
    deps.eventsSocket.accept(c.env.incoming, upgrade.socket, upgrade.head);
    return ANSWERED;
  });
  for (const registered of deps.router.routes) app.on(registered.route.method, registered.route.path, routeHandler(registered, deps.checkAnswers ?? false));
  app.notFound((c) => errorAnswer(notFound(deps.router.routes, c.env.incoming), deps.log, c.get('cors') ?? NO_CORS, c.env.outgoing));
  app.onError((error, c) => {
    const outgoing = c.env.outgoing;
    if (!outgoing) return errorAnswer(error, deps.log, c.get('cors') ?? NO_CORS, undefined);
    return answerFailure(error, c.env.incoming, outgoing, c.get('cors') ?? NO_CORS, deps.log);
  });
  return app;
}

/**
 * Answers a request the direct table matched (direct-routes.ts): the same checks the middleware would make of it
 * (Host, Origin, token), then its route, and failures answered as the app's `onError` answers them.
 */
function directAnswerer(deps: HttpHostDeps) {
  const isDeskToken = bearerCheck(deps.security.token);
  const checkAnswers = deps.checkAnswers ?? false;
  // An exact match has no query string.
  const noQuery = () => ({});
  return async (route: RegisteredRoute, request: IncomingMessage, response: ServerResponse): Promise<void> => {
    let cors = NO_CORS;
    try {
      cors = checkHostAndOrigin(request, deps.security);
      const principal = authenticate(request, isDeskToken, deps.resolveAgentToken);
      await runRoute(route, { request, response, principal, cors, params: {}, queryObject: noQuery }, checkAnswers);
    } catch (error) {
      answerFailure(error, request, response, cors, deps.log);
    }
  };
}

/**
 * Every request: Host must be ours (DNS rebinding) and a browser Origin allowed; a CORS preflight is answered here;
 * /ui/ is the public board. Everything else needs a token: the desk's opens every route, an agent's only the
 * `desk-or-agent` ones (checked by the route), none at all is refused before anyone says whether the path exists.
 * An upgrade is accepted only at /api/events, with the desk token in a header or (browsers) a subprotocol, and (with a
 * cluster runner) at /runner/<task>/connect with that run's token; /runner/<task>/git/ takes that token too.
 */
function securityMiddleware(deps: HttpHostDeps): MiddlewareHandler<Env> {
  const { security } = deps;
  const isDeskToken = bearerCheck(security.token);
  return async (c, next) => {
    const request = c.env.incoming;
    const url = requestUrl(request);
    const { pathname } = url;
    c.set('url', url);
    c.set('cors', checkHostAndOrigin(request, security));
    if (c.env.upgrade) {
      if (pathname.startsWith(RUNNER_PATH_PREFIX) && deps.runnerGate) {
        deps.runnerGate.upgrade(request, c.env.upgrade.socket, c.env.upgrade.head, pathname);
        return ANSWERED;
      }
      if (pathname !== apiRoutes.events.path) throw new HttpError(404, 'not_found', `No WebSocket at ${pathname}.`);
      if (!isDeskToken(request.headers.authorization ?? bearerFromSubprotocol(request))) throw unauthorized();
      c.set('principal', { kind: 'desk' });
      return next();
    }
    if (request.method === 'OPTIONS') return preflight(request, c.env.outgoing);
    if (c.env.outgoing && await deps.staticUi?.handle(request, c.env.outgoing, pathname)) return ANSWERED;
    if (isBrowserVisit(request, pathname)) return c.redirect('/ui/', 302);
    if (pathname === MCP_PATH && deps.mcp) {
      const token = bearerTokenOf(request.headers.authorization);
      // The body is read (JSON only, size-limited) once the token is known to be a running task's.
      const answer = token === undefined ? undefined : await deps.mcp.handle(fetchRequestOf(request, c.env.outgoing), token, () => readJsonBody(request));
      if (!answer) throw unauthorized('Send your task\'s MCP token (given in session/new) as "Authorization: Bearer <token>".');
      return answer;
    }
    if (pathname.startsWith(RUNNER_PATH_PREFIX) && deps.runnerGate && c.env.outgoing) {
      await deps.runnerGate.handle(request, c.env.outgoing, pathname);
      return ANSWERED;
    }
    c.set('principal', authenticate(request, isDeskToken, deps.resolveAgentToken));
    try {
      decodeURIComponent(pathname);
    } catch {
      throw new HttpError(400, 'bad_request', `Malformed percent-encoding in "${pathname}".`);
    }
    return next();
  };
}

function preflight(request: IncomingMessage, outgoing: ServerResponse | undefined): Response {
  const origin = request.headers.origin;
  if (origin === undefined || request.headers['access-control-request-method'] === undefined) {
    throw new HttpError(400, 'bad_request', 'OPTIONS is answered only as a CORS preflight (Origin and Access-Control-Request-Method).');
  }
  if (!outgoing) return new Response(null, { status: 204, headers: preflightHeaders(origin) });
  outgoing.writeHead(204, preflightHeaders(origin)).end();
  return ANSWERED;
}

/** A contract route on the Hono app: the middleware has admitted the request and read its URL. */
function routeHandler(registered: RegisteredRoute, checkAnswers: boolean) {
  return async (c: Context<Env>): Promise<Response> => {
    const url = c.get('url');
    const call = { request: c.env.incoming, response: c.env.outgoing as ServerResponse, principal: c.get('principal'), cors: c.get('cors') };
    await runRoute(registered, { ...call, params: c.req.param(), queryObject: () => queryObject(url) }, checkAnswers);
    return ANSWERED;
  };
}

/** 405 with `Allow` for a path of the contract asked with another method, else 404. */
function notFound(routes: readonly RegisteredRoute[], request: IncomingMessage): HttpError {
  const { pathname } = requestUrl(request);
  const allowed = new Set(routes.filter(({ route }) => patternOf(route).test(pathname)).map(({ route }) => route.method));
  if (allowed.size > 0) {
    const allow = [...allowed, 'OPTIONS'].join(', ');
    return new HttpError(405, 'method_not_allowed', `${request.method ?? ''} is not allowed on ${pathname}; use ${allow}.`, undefined, { Allow: allow });
  }
  return new HttpError(404, 'not_found', `Nothing at ${pathname}.`);
}

const patterns = new WeakMap<RouteDef, RegExp>();
function patternOf(route: RouteDef): RegExp {
  let pattern = patterns.get(route);
  if (!pattern) {
    const source = route.path.split('/').map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
    pattern = new RegExp(`^${source}$`);
    patterns.set(route, pattern);
  }
  return pattern;
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
