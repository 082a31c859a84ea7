// Who may ask the desk anything, decided per request before any route runs: Host and Origin (DNS rebinding and
// browser pages), then the bearer token. Both ways into a route use these, the Hono middleware and the direct table
// (direct-routes.ts), so a request is refused or let in alike whichever way it came.
import type { IncomingMessage } from 'node:http';
import { EVENTS_SUBPROTOCOL } from '../../../shared/events';
import { HttpError } from './http-error';
import type { Principal } from './router';
import { bearerTokenOf, isAllowedHost, isAllowedOrigin, type SecurityConfig } from './security';

/** The CORS headers every answer to an allowed browser Origin carries; none for a request without an Origin. */
export type CorsHeaders = Readonly<Record<string, string>>;

export const NO_CORS: CorsHeaders = Object.freeze({});

/** Host must be ours; a browser Origin must be allowed. The CORS headers an allowed origin's answers carry. */
export function checkHostAndOrigin(request: IncomingMessage, security: SecurityConfig): CorsHeaders {
  const host = request.headers.host;
  if (!isAllowedHost(host, security.allowedHosts)) {
    throw new HttpError(403, 'forbidden', `Host "${host ?? ''}" is not allowed; use 127.0.0.1, localhost or a name configured with --allow-host.`);
  }
  const origin = request.headers.origin;
  if (origin === undefined) return NO_CORS;
  if (!isAllowedOrigin(origin, host, security.allowedOrigins)) {
    throw new HttpError(403, 'forbidden', `Origin "${origin}" is not allowed; add it with --allow-origin.`);
  }
  return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
}

/** Whose token the request carries: the desk's, or an agent's (when the host takes agent tokens); else 401. */
export function authenticate(
  request: IncomingMessage,
  isDeskToken: (authorization: string | undefined) => boolean,
  resolveAgentToken: ((token: string) => string | undefined) | undefined,
): Principal {
  if (isDeskToken(request.headers.authorization)) return { kind: 'desk' };
  const presented = bearerTokenOf(request.headers.authorization);
  const agentId = presented === undefined ? undefined : resolveAgentToken?.(presented);
  if (agentId === undefined) throw unauthorized();
  return { kind: 'agent', agentId };
}

export function unauthorized(message = 'Send the desk\'s token as "Authorization: Bearer <token>".'): HttpError {
  return new HttpError(401, 'unauthorized', message, undefined, {
    'WWW-Authenticate': 'Bearer realm="Assignment Desk"',
  });
}

/** A person typing the desk's address into a browser gets the board instead of a 401. */
export function isBrowserVisit(request: IncomingMessage, pathname: string): boolean {
  return pathname === '/' && request.method === 'GET' && request.headers.authorization === undefined
    && (request.headers.accept ?? '').includes('text/html');
}

/** Browsers cannot set headers on a WebSocket, so they offer the token as a subprotocol `bearer.<token>`. */
export function bearerFromSubprotocol(request: IncomingMessage): string | undefined {
  const offered = (request.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  if (!offered.includes(EVENTS_SUBPROTOCOL)) return undefined;
  const bearer = offered.find((p) => p.startsWith('bearer.'));
  return bearer ? `Bearer ${bearer.slice('bearer.'.length)}` : undefined;
}
