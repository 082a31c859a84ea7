// What the sandbox's network bridge listens on, and its one spelling as flags: the wrapper reads them from its argv,
// the in-process preload from a JSON array in BRIDGE_SETTINGS_VARIABLE. Node built-ins only: it loads into agents.

/** The variable that carries the preload's flags into an agent's Node; the preload deletes it before the agent runs. */
export const BRIDGE_SETTINGS_VARIABLE = 'DESK_NET_BRIDGE';

export const BRIDGE_USAGE = 'usage: sandbox-net-bridge [--socket <path> --port <0-65535> [--plain] [--no-proxy <hosts>] [--forward <addr>:<port>=<host>:<port>]…] [--relay <port>=<socket path>]… -- <command> [args…]';

/** A loopback port whose connections the proxy tunnels (CONNECT) to `target`. */
export interface Forward { address: string; port: number; target: string }
/** A loopback port whose connections are piped, as they are, to a unix socket (the desk's MCP relay). */
export interface Relay { port: number; socketPath: string }
/** The egress proxy on its socket, reached at 127.0.0.1:`port` (0: any free port), named in the proxy variables. */
export interface ProxySettings { socketPath: string; port: number; noProxy: string; forwards: Forward[] }

export interface BridgeSettings {
  proxy?: ProxySettings;
  relays: Relay[];
}

/** The settings, and what follows `--` (the wrapper's command line; undefined without `--`); undefined when malformed. */
export function parseBridgeFlags(argv: readonly string[]): { settings: BridgeSettings; rest: string[] | undefined } | undefined {
  let socketPath: string | undefined;
  let port: number | undefined;
  let plain = false;
  let noProxy = '';
  const forwards: Forward[] = [];
  const relays: Relay[] = [];
  let rest: string[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--socket') socketPath = argv[++i];
    else if (arg === '--plain') plain = true;
    else if (arg === '--no-proxy') noProxy = argv[++i] ?? '';
    else if (arg === '--port') port = parsePort(argv[++i], 0);
    else if (arg === '--forward' || arg === '--relay') {
      const value = argv[++i] ?? '';
      const parsed = arg === '--forward' ? parseForward(value) : parseRelay(value);
      if (!parsed) return undefined;
      if ('target' in parsed) forwards.push(parsed);
      else relays.push(parsed);
    } else if (arg === '--') {
      rest = argv.slice(i + 1);
      break;
    } else return undefined;
  }
  if ((socketPath === undefined) !== (port === undefined)) return undefined;
  if (socketPath === undefined || port === undefined) {
    // Forwards tunnel through the proxy: without its socket they have nowhere to go.
    if (forwards.length > 0 || relays.length === 0) return undefined;
    return { settings: { relays }, rest };
  }
  // `--plain`: the socket is not a proxy but a relay, and the command gets no proxy variables.
  if (plain) return forwards.length > 0 ? undefined : { settings: { relays: [{ port, socketPath }, ...relays] }, rest };
  return { settings: { proxy: { socketPath, port, noProxy, forwards }, relays }, rest };
}

function parsePort(text: string | undefined, min: number): number | undefined {
  if (!/^\d{1,5}$/.test(text ?? '')) return undefined;
  const port = Number(text);
  return port >= min && port <= 65535 ? port : undefined;
}

/** `127.0.0.1:8080=localhost:8080` or `[::1]:8080=[::1]:8080`; only loopback listeners. */
function parseForward(text: string): Forward | undefined {
  const match = /^(127\.0\.0\.1|\[::1\]):(\d{1,5})=(\S+:\d{1,5})$/.exec(text);
  const port = parsePort(match?.[2], 1);
  if (!match || port === undefined) return undefined;
  return { address: match[1] === '[::1]' ? '::1' : '127.0.0.1', port, target: match[3] ?? '' };
}

/** `4000=/path/to/mcp.sock`: listens on 127.0.0.1:4000. */
function parseRelay(text: string): Relay | undefined {
  const match = /^(\d{1,5})=(\/.+)$/.exec(text);
  const port = parsePort(match?.[1], 1);
  if (!match?.[2] || port === undefined) return undefined;
  return { port, socketPath: match[2] };
}

/** Every common spelling of the proxy variables, and no exceptions to them but `noProxy`. */
export function proxyVariables(port: number, noProxy: string): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  return {
    HTTPS_PROXY: url, HTTP_PROXY: url, https_proxy: url, http_proxy: url, ALL_PROXY: url, all_proxy: url,
    NO_PROXY: noProxy, no_proxy: noProxy,
    NODE_USE_ENV_PROXY: '1',
  };
}
