// Which hosts a sandboxed agent may reach: parsing allowlist entries and matching `host:port` against them.
// Pure; the egress proxy asks it before it resolves or connects anything.
import { isIP } from 'node:net';

/**
 * One allowlist entry, parsed. `host` is canonical (lower case, no trailing dot, IPv6 without brackets,
 * IPv4 in dotted quads). `ports: 'web'` means the entry named no port: 443 and 80 only.
 */
export interface AllowRule {
  readonly entry: string;
  readonly host: string;
  /** `*.example.com`: any subdomain of `host`, not `host` itself. */
  readonly subdomains: boolean;
  readonly ports: readonly number[] | 'web';
}

export type ParsedEntry = { ok: true; rule: AllowRule } | { ok: false; entry: string; reason: string };

/** The ports an entry without `:port` allows: HTTPS and HTTP, nothing else (no SSH, no databases, no SMTP). */
export const WEB_PORTS: readonly number[] = [443, 80];

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/**
 * The canonical form of a host name or IP literal, or undefined when it is ambiguous or malformed:
 * empty, whitespace or non-ASCII, userinfo (`a@b`), paths, percent signs, zone ids, empty labels.
 * Numeric IPv4 spellings (`127.1`, `0x7f.0.0.1`) become dotted quads, so `allow` and `connect` see one host.
 */
export function normalizeHost(host: string): string | undefined {
  if (host.length === 0 || host.length > 255 || /[^\x21-\x7e]|[@/\\?#%*]/.test(host)) return undefined;
  const bracketed = host.startsWith('[') && host.endsWith(']');
  const bare = bracketed ? host.slice(1, -1) : host;
  if (bracketed || bare.includes(':')) {
    if (isIP(bare) !== 6) return undefined;
    return canonicalUrlHost(`[${bare}]`)?.slice(1, -1);
  }
  const lower = bare.toLowerCase().replace(/\.$/, '');
  if (lower.length === 0 || lower.length > 253 || !lower.split('.').every((label) => LABEL.test(label))) return undefined;
  return canonicalUrlHost(lower);
}

/** The WHATWG URL parser's host, which also rewrites every IPv4 spelling to dotted quads; undefined if it refuses. */
function canonicalUrlHost(host: string): string | undefined {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * Splits `host`, `host:port`, `[v6]` or `[v6]:port`. An unbracketed IPv6 literal is refused here:
 * `::1:443` could be a host and a port or just a host.
 */
export function splitHostPort(text: string): { host: string; port?: number } | undefined {
  let host: string;
  let rest: string;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) return undefined;
    host = text.slice(0, close + 1);
    rest = text.slice(close + 1);
  } else {
    const colon = text.indexOf(':');
    if (colon !== text.lastIndexOf(':')) return undefined;
    host = colon < 0 ? text : text.slice(0, colon);
    rest = colon < 0 ? '' : text.slice(colon);
  }
  if (rest === '') return { host };
  const port = parsePort(rest.slice(1));
  return rest.startsWith(':') && port !== undefined ? { host, port } : undefined;
}

function parsePort(text: string): number | undefined {
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : undefined;
}

/**
 * Parses one entry: `api.anthropic.com`, `*.googleapis.com`, `localhost:8080`, `127.0.0.1:443`, `[::1]:8443`.
 * A wildcard covers subdomains only and needs at least two labels after it (`*.com` is refused as too broad);
 * a lone `*` is refused: an allowlist that allows everything is not one.
 */
export function parseAllowlistEntry(entry: string): ParsedEntry {
  const refuse = (reason: string): ParsedEntry => ({ ok: false, entry, reason });
  if (entry.length === 0) return refuse('empty');
  if (/\s/.test(entry)) return refuse('contains whitespace');
  if (entry.includes('@')) return refuse('contains userinfo (@)');
  if (entry.includes('://') || entry.includes('/')) return refuse('a host is expected, not a URL');
  const subdomains = entry.startsWith('*.');
  const split = splitHostPort(subdomains ? entry.slice(2) : entry);
  if (!split) return refuse('not host or host:port (bracket IPv6 literals, ports are 1-65535)');
  const host = normalizeHost(split.host);
  if (host === undefined) return refuse('not a valid host name or IP literal');
  if (subdomains && isIP(host) !== 0) return refuse('a wildcard cannot cover an IP literal');
  if (subdomains && !host.includes('.')) return refuse('a wildcard needs at least two labels after it');
  return { ok: true, rule: { entry, host, subdomains, ports: split.port === undefined ? 'web' : [split.port] } };
}

/** Parses every entry; the ones that do not parse are returned with a reason rather than silently widened. */
export function compileAllowlist(entries: readonly string[]): { rules: AllowRule[]; refused: { entry: string; reason: string }[] } {
  const rules: AllowRule[] = [];
  const refused: { entry: string; reason: string }[] = [];
  for (const entry of entries) {
    const parsed = parseAllowlistEntry(entry);
    if (parsed.ok) rules.push(parsed.rule);
    else refused.push({ entry: parsed.entry, reason: parsed.reason });
  }
  return { rules, refused };
}

/**
 * Whether `host:port` is allowed. Host names match names only: an IP is allowed only when an entry names
 * that IP literally, and `localhost` does not allow `127.0.0.1`. A host that does not normalize is refused.
 */
export function isAllowed(rules: readonly AllowRule[], host: string, port: number): boolean {
  const target = normalizeHost(host);
  if (target === undefined || !Number.isInteger(port) || port < 1 || port > 65535) return false;
  return rules.some((rule) => hostMatches(rule, target) && (rule.ports === 'web' ? WEB_PORTS : rule.ports).includes(port));
}

function hostMatches(rule: AllowRule, host: string): boolean {
  if (!rule.subdomains) return host === rule.host;
  return isIP(host) === 0 && host.endsWith(`.${rule.host}`);
}
