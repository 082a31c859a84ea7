// Runs a contract route's handler once the request is admitted, and writes JSON answers and refusals on Node's
// response. Shared by the Hono app and the direct table (direct-routes.ts): a route answers the same either way.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { RouteDef } from '../../../shared/routes/route';
import { NO_CORS, type CorsHeaders } from './admission';
import { toHttpError } from './domain-errors';
import { HttpError } from './http-error';
import { PreparedAnswer } from './list-answer';
import { ANSWERED } from './node-adapter';
import { readBody, readQuery, type Principal, type RegisteredRoute } from './router';

/** What an admitted request brings to its route. */
export interface AdmittedCall {
  request: IncomingMessage;
  response: ServerResponse;
  principal: Principal;
  cors: CorsHeaders;
  /** Decoded path parameters ({} for a path without any). */
  params: Record<string, string>;
  /** The query string as an object for the route's schema; read only if the route asks for its query. */
  queryObject: () => Record<string, string | string[]>;
}

/** Runs the route's handler with its principal, parameters, query and body, and answers what it returns. */
export async function runRoute({ route, handler }: RegisteredRoute, call: AdmittedCall, checkAnswers: boolean): Promise<void> {
  const { request, response, principal, cors } = call;
  if (principal.kind === 'agent' && route.auth !== 'desk-or-agent') {
    throw new HttpError(403, 'forbidden', `An agent token opens only the /agent/* routes; ${route.path} needs the desk's token.`);
  }
  const answer = await handler({
    request, response, principal, params: call.params,
    query: () => readQuery(route, call.queryObject) as never,
    body: () => readBody(route, request) as Promise<never>,
  });
  if (!answer) return;
  const [status, body] = answer;
  if (body instanceof PreparedAnswer) {
    sendPrepared(response, body, cors);
    return;
  }
  if (checkAnswers) checkAnswer(route, status, body);
  sendJson(status, body, cors, response);
}

/** Throws when an answer is not what the route's contract declares for its status. */
function checkAnswer(route: RouteDef, status: number, body: unknown): void {
  const spec = route.responses[status];
  if (spec === undefined) throw new Error(`${route.method} ${route.path} answered ${status}, which its contract does not declare.`);
  if (typeof spec === 'string') return;
  const result = spec.safeParse(body);
  if (!result.success) throw new Error(`${route.method} ${route.path} answered ${status} off its contract: ${z.prettifyError(result.error)}`);
}

/**
 * The answer to anything a route or the checks before it threw. A handler that failed after starting its own answer
 * leaves nothing to say: the connection is cut so the client sees it. Faults of the desk (5xx) are logged, never shown.
 */
export function answerFailure(error: unknown, request: IncomingMessage, response: ServerResponse, cors: CorsHeaders, log: (error: unknown) => void): Response {
  if (response.headersSent) {
    log(error);
    response.destroy();
    return ANSWERED;
  }
  const answer = errorAnswer(error, log, cors, response);
  // Drain what the client still sends (e.g. after a 413) so it can read the answer before the socket closes.
  if (!request.complete) request.resume();
  return answer;
}

/** The JSON error answer of anything thrown, on Node's response or (an upgrade has none) as a Response. */
export function errorAnswer(error: unknown, log: (error: unknown) => void, cors: CorsHeaders, outgoing: ServerResponse | undefined): Response {
  const httpError = toHttpError(error);
  if (httpError.status >= 500) log(error);
  return sendJson(httpError.status, httpError.body(), { ...cors, ...httpError.headers }, outgoing);
}

/**
 * A JSON answer. Written straight to Node's response when there is one (the adapter then leaves it alone: far less
 * work per request than a fetch Response); an upgrade, which has none, gets a Response to write to its socket.
 */
export function sendJson(status: number, body: unknown, headers: CorsHeaders, outgoing: ServerResponse | undefined): Response {
  const text = JSON.stringify(body);
  const own = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  };
  // Most answers carry no more headers: a spread after the literal's own fields takes V8's slow path every time.
  const all = headers === NO_CORS ? own : { ...own, ...headers };
  if (!outgoing) return new Response(text, { status, headers: all });
  outgoing.writeHead(status, all).end(text);
  return ANSWERED;
}

/** A body serialized (and maybe compressed) ahead, e.g. a cached list; a 304 carries its headers and nothing else. */
function sendPrepared(response: ServerResponse, answer: PreparedAnswer, headers: CorsHeaders): void {
  response.writeHead(answer.status, {
    ...(answer.status !== 304 && { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(answer.body) }),
    'X-Content-Type-Options': 'nosniff',
    ...headers,
    ...answer.headers,
  });
  response.end(answer.status === 304 ? undefined : answer.body);
}
