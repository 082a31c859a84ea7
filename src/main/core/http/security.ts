// Pure checks run on every request: which Host names and Origins are allowed, and the bearer token.
import { timingSafeEqual } from 'node:crypto';

export interface SecurityConfig {
  token: string;
  /** Host names allowed besides the loopback ones (lower case, without port). */
  allowedHosts: readonly string[];
  /** Origins (scheme://host[:port]) whose browser pages may call the desk. */
  allowedOrigins: readonly string[];
}

/** The Prompt Pad web app sends tasks from this origin. */
export const PROMPT_PAD_ORIGIN = 'https://prompt-pad.danmercer.net';

/** The host name of a Host header, lower case and without port; brackets kept for IPv6. */
export function hostNameOf(hostHeader: string): string {
  const host = hostHeader.trim().toLowerCase();
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end === -1 ? host : host.slice(0, end + 1);
  }
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/** Loopback names, `*.localhost`, and configured names; anything else may be a DNS-rebinding attack. */
export function isAllowedHost(hostHeader: string | undefined, allowedHosts: readonly string[]): boolean {
  if (!hostHeader) return false;
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i.test(hostHeader.trim())) return false;
  const name = hostNameOf(hostHeader);
  if (name === 'localhost' || name.endsWith('.localhost') || name === '127.0.0.1' || name === '[::1]') return true;
  return allowedHosts.some((allowed) => allowed.toLowerCase() === name);
}

/** The token of an `Authorization: Bearer <token>` header, if that is what the header holds. */
export function bearerTokenOf(authorization: string | undefined): string | undefined {
  return /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
}

/**
 * Whether an `Authorization` header carries `token`, its bytes compared in constant time. A presented token of another
 * length is refused before comparing: that tells an attacker only the token's length, which its format says anyway.
 * (Hashing both sides to equal lengths cost a SHA-256 per request, a few percent of a submission.)
 */
export function bearerCheck(token: string): (authorization: string | undefined) => boolean {
  const expected = Buffer.from(token, 'utf8');
  return (authorization) => {
    const presented = bearerTokenOf(authorization);
    if (presented === undefined) return false;
    const bytes = Buffer.from(presented, 'utf8');
    return bytes.length === expected.length && timingSafeEqual(bytes, expected);
  };
}

/** One comparison of a presented bearer token with ours (see `bearerCheck`). */
export function hasValidBearer(authorization: string | undefined, token: string): boolean {
  return bearerCheck(token)(authorization);
}

/** Whether a browser page from `origin` may call us: a configured origin, or our own pages (same origin). */
export function isAllowedOrigin(origin: string, hostHeader: string | undefined, allowedOrigins: readonly string[]): boolean {
  const normalized = origin.trim().toLowerCase().replace(/\/$/, '');
  if (allowedOrigins.some((allowed) => allowed.toLowerCase().replace(/\/$/, '') === normalized)) return true;
  return hostHeader !== undefined && (normalized === `http://${hostHeader.trim().toLowerCase()}`);
}

export const CORS_ALLOWED_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';
export const CORS_ALLOWED_HEADERS = 'Authorization, Content-Type, Accept';

/** Headers of a preflight answer for an allowed origin. */
export function preflightHeaders(origin: string): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': CORS_ALLOWED_METHODS,
    'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS,
    // Chrome's Private Network Access: a public site (Prompt Pad) calling a loopback server.
    'Access-Control-Allow-Private-Network': 'true',
    'Access-Control-Max-Age': '600',
    Vary: 'Origin',
  };
}
