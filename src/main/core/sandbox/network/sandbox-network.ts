// What the sandbox runner calls to give an agent an allowlisted network: the egress proxy on a socket in the task's
// private dir, and the flags of the in-sandbox bridge to that socket (./network-bridge.ts runs the agent behind it).
import { join } from 'node:path';
import { builtNetworkFile, nodeLauncher } from './bridge-files';
import { createEgressProxy } from './egress-proxy';
import { compileAllowlist, isAllowed } from './host-allowlist';
import { forwardArgument, loopbackForwards } from './loopback-forwards';
import { createRefusalNotices, type GatewayInUse } from './refusal-notices';

export interface AllowlistNetworkOptions {
  /** A private (0700) per-task directory; the proxy's socket is created in it. */
  dir: string;
  /** Allowlist entries (see host-allowlist.ts); entries that do not parse are logged and left out. */
  hosts: readonly string[];
  /** Where refusals and ignored entries are told; a refusal the person meant (see ./refusal-notices.ts) is `info`. */
  log(line: string, level?: 'info' | 'warn'): void;
  /** The gateway the agent is pointed at, when the policy lets it reach one: its vendor's hosts are refused quietly. */
  gateway?: GatewayInUse;
  /**
   * The bridge's port on the sandbox's loopback; 0 lets it take a free one and advertise that. Default: a fixed port
   * (the sandbox's loopback is its own) other than `reservedPorts`, so the proxy can be named before the agent starts.
   */
  port?: number;
  /** Ports the sandbox's loopback needs for something else (the desk's MCP relay). */
  reservedPorts?: readonly number[];
  /** Hosts the agent reaches without the proxy (NO_PROXY), e.g. the desk's MCP relay on the sandbox's loopback. */
  noProxy?: readonly string[];
}

export interface AllowlistNetwork {
  /** The bridge's flags (./bridge-settings.ts) that serve the proxy and name it in the agent's proxy variables. */
  bridgeFlags: string[];
  /** Paths to bind into the sandbox at the same place: the proxy's socket. */
  bindPaths: string[];
  /** Stops the proxy and ends every connection through it. */
  close(): Promise<void>;
}

/** Longest unix socket path Linux accepts (sun_path is 108 bytes with its terminating NUL); macOS allows 103. */
const MAX_SOCKET_PATH = process.platform === 'darwin' ? 103 : 107;

/**
 * Starts the egress proxy for one sandboxed agent. Refusals are logged once per host:port, as
 * `Network: refused api.evil.example:443 (not in the agent's allowlist): add "api.evil.example" to the policy's network to allow it.`,
 * except its vendor's hosts while it works through a gateway (./refusal-notices.ts).
 */
export async function prepareAllowlistNetwork(options: AllowlistNetworkOptions): Promise<AllowlistNetwork> {
  const socketPath = join(options.dir, 'egress.sock');
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    throw new Error(`Network: the socket path ${socketPath} is longer than ${MAX_SOCKET_PATH} bytes; use a shorter task directory`);
  }
  const { rules, refused } = compileAllowlist(options.hosts);
  for (const entry of refused) options.log(`Network: ignored allowlist entry ${JSON.stringify(entry.entry)} (${entry.reason})`);

  const noticeFor = createRefusalNotices(options.gateway);
  const proxy = await createEgressProxy({
    socketPath,
    allow: (host, port) => isAllowed(rules, host, port),
    onDecision: ({ host, port, allowed }) => {
      const notice = allowed ? undefined : noticeFor(host, port);
      if (notice) options.log(notice.text, notice.level);
    },
  });

  const forwardPorts = loopbackForwards(rules).map((forward) => forward.port);
  const port = String(options.port ?? sandboxProxyPort([...(options.reservedPorts ?? []), ...forwardPorts]));
  const noProxy = options.noProxy && options.noProxy.length > 0 ? ['--no-proxy', options.noProxy.join(',')] : [];
  // Loopback endpoints the allowlist names answer inside at their own address, for agents that ignore the proxy.
  const forwards = loopbackForwards(rules).flatMap((forward) => ['--forward', forwardArgument(forward)]);
  return {
    bridgeFlags: ['--socket', socketPath, '--port', port, ...noProxy, ...forwards],
    bindPaths: [socketPath],
    close: () => proxy.close(),
  };
}

/** The proxy's usual port, or the next one that nothing else in the sandbox listens on. */
export function sandboxProxyPort(taken: readonly number[]): number {
  let port = SANDBOX_PROXY_PORT;
  while (taken.includes(port)) port++;
  return port;
}
/** Where the proxy answers inside every sandbox: the sandbox's loopback is its own, so a fixed port is always free. */
const SANDBOX_PROXY_PORT = 3128;

/** The Node arguments that run the bridge's wrapper (or another program beside it: the dev server's forwarder). */
export function bridgeLauncher(entry = builtNetworkFile('sandbox-net-bridge')): string[] {
  return nodeLauncher(entry);
}
