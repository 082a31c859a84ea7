// Hono on Node's own http server, without a fetch `Request` per request. The desk's handlers answer on Node's
// response themselves, so Hono needs only the method and the URL to route; a real `Request` is made only where an
// answer needs one (the MCP endpoint). Touching the global `Request` or `Response` makes Node load its fetch
// implementation (undici), which a desk that is only taking tasks never needs: it cost the start-up about 40 ms.
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * What a handler returns once it has answered on Node's response itself. Hono passes a handler's answer back
 * untouched and never reads it as a `Response`; only `sendAnswer` looks at it, by identity.
 */
export const ANSWERED = Object.freeze({ answeredOnNodeResponse: true }) as unknown as Response;

/** The host name requests are given for routing: the desk's own checks read the Host header, never this. */
const ROUTING_ORIGIN = 'http://desk.localhost';

/**
 * What Hono reads of a request to route it: its method and URL. A HEAD request is routed as GET, whose handler
 * answers on Node's response, which leaves the body out of a HEAD answer by itself.
 */
export function routingRequest(incoming: IncomingMessage): Request {
  const view = { method: routingMethod(incoming), url: `${ROUTING_ORIGIN}${incoming.url ?? '/'}` };
  // Hono's router and context read only `method` and `url` of the request they are given (see the file's comment).
  return view as unknown as Request;
}

/** The method a request is routed by: HEAD as GET (see `routingRequest`). */
export function routingMethod(incoming: IncomingMessage): string {
  return incoming.method === 'HEAD' ? 'GET' : (incoming.method ?? 'GET');
}

/** The request as a fetch `Request` (headers, no body: callers pass the body they read), aborted when the client goes. */
export function fetchRequestOf(incoming: IncomingMessage, outgoing: ServerResponse | undefined): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) headers.append(incoming.rawHeaders[i] as string, incoming.rawHeaders[i + 1] as string);
  const controller = new AbortController();
  outgoing?.once('close', () => controller.abort());
  return new Request(`${ROUTING_ORIGIN}${incoming.url ?? '/'}`, { method: incoming.method ?? 'GET', headers, signal: controller.signal });
}

/**
 * Writes a handler's fetch `Response` (a redirect, an MCP answer, maybe a stream of events) to Node's response,
 * chunk by chunk as it comes, waiting whenever the client reads slower; stops reading when the client goes.
 */
export async function sendAnswer(answer: Response, outgoing: ServerResponse): Promise<void> {
  if (answer === ANSWERED || outgoing.headersSent) return;
  const headers: Record<string, string | string[]> = {};
  answer.headers.forEach((value, name) => { headers[name] = value; });
  const cookies = answer.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  outgoing.writeHead(answer.status, answer.statusText, headers);
  if (!answer.body) {
    outgoing.end();
    return;
  }
  // A stream of events may say nothing for a while: its client gets the head now, not with the first event.
  outgoing.flushHeaders();
  const reader = answer.body.getReader();
  const gone = () => { void reader.cancel().catch(() => undefined); };
  outgoing.once('close', gone);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || outgoing.destroyed) break;
      if (!outgoing.write(value)) await drainedOrClosed(outgoing);
    }
    outgoing.end();
  } finally {
    outgoing.off('close', gone);
  }
}

function drainedOrClosed(outgoing: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off('drain', done).off('close', done);
      resolve();
    };
    outgoing.once('drain', done).once('close', done);
  });
}
