// What the sandbox will keep an agent from reaching, said before it tries: the endpoints its base-URL variables
// (and config files such as Codex's `config.toml`) point it at that the policy's network does not name, each with
// the entry to add. Pure: the sandbox runner hands in the agent's environment and the files' text.
import { compileAllowlist, isAllowed, normalizeHost } from './host-allowlist';

/** Variables that point an agent at a model service: every vendor's `…_BASE_URL`, and Ollama's host. */
const ENDPOINT_VARIABLE = /(^|_)BASE_URL$|^OPENAI_API_BASE$|^OLLAMA_HOST$/;

/** Where an endpoint was named: a variable, or a file and its key. */
export interface EndpointSource {
  /** As the person reads it: `ANTHROPIC_BASE_URL`, `~/.codex/config.toml (base_url)`. */
  name: string;
  url: string;
}

/** The endpoints named in an agent's environment, in the order of its variables. */
export function endpointsInEnvironment(env: Readonly<Record<string, string | undefined>>): EndpointSource[] {
  return Object.entries(env).flatMap(([name, value]) => (ENDPOINT_VARIABLE.test(name) && value ? [{ name, url: value }] : []));
}

/** The `base_url = "…"` values of a TOML config (Codex's model providers), named by the file and key. */
export function endpointsInToml(file: string, text: string): EndpointSource[] {
  return [...text.matchAll(/^\s*base_url\s*=\s*["']([^"'\n]+)["']/gm)].map((match) => ({ name: `${file} (base_url)`, url: match[1] ?? '' }));
}

/** `host:port` as an allowlist entry names it (IPv6 bracketed; no port for HTTPS on 443), or undefined if not a URL. */
export function entryFor(url: string): string | undefined {
  let parsed: URL;
  try {
    // Ollama's host is often given without a scheme (`127.0.0.1:11434`).
    parsed = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`);
  } catch {
    return undefined;
  }
  const host = normalizeHost(parsed.hostname);
  if (host === undefined) return undefined;
  const port = parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port);
  const shown = host.includes(':') ? `[${host}]` : host;
  return port === 443 ? shown : `${shown}:${port}`;
}

/** Whether `network` lets the agent reach the endpoint an allowlist entry names. */
function reaches(rules: ReturnType<typeof compileAllowlist>['rules'], entry: string): boolean {
  const target = compileAllowlist([entry]).rules[0];
  return target !== undefined && isAllowed(rules, target.host, target.ports === 'web' ? 443 : target.ports[0] ?? 443);
}

/** The first endpoint the agent is pointed at that `network` lets it reach (its gateway), as an entry and where it is named. */
export function reachableGateway(sources: readonly EndpointSource[], network: readonly string[]): { entry: string; name: string } | undefined {
  if (network.includes('*')) return undefined;
  const { rules } = compileAllowlist(network);
  for (const source of sources) {
    const entry = entryFor(source.url);
    if (entry !== undefined && reaches(rules, entry)) return { entry, name: source.name };
  }
  return undefined;
}

/**
 * One line per endpoint the policy's network does not allow, saying what to add. `network` is the allowlist the
 * sandbox uses; `*` allows everything, so nothing is said.
 */
export function unreachableEndpointNotices(sources: readonly EndpointSource[], network: readonly string[]): string[] {
  if (network.includes('*')) return [];
  const { rules } = compileAllowlist(network);
  const said = new Set<string>();
  const notices: string[] = [];
  for (const source of sources) {
    const entry = entryFor(source.url);
    if (entry === undefined) continue;
    if (compileAllowlist([entry]).rules[0] === undefined || reaches(rules, entry)) continue;
    if (said.has(`${source.name} ${entry}`)) continue;
    said.add(`${source.name} ${entry}`);
    notices.push(`The agent's ${source.name} points at ${entry}, which the sandbox keeps out of reach: add "${entry}" to the policy's network.`);
  }
  return notices;
}
