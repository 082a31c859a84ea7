// What the sandbox runner calls to give an agent an allowlisted network: the egress proxy on a socket in the task's
// private dir, and a wrapper that runs the agent behind the in-sandbox bridge to that socket.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createEgressProxy } from './egress-proxy';
import { compileAllowlist, isAllowed } from './host-allowlist';
import { forwardArgument, loopbackForwards } from './loopback-forwards';

export interface AllowlistNetworkOptions {
  /** A private (0700) per-task directory; the proxy's socket is created in it. */
  dir: string;
  /** Allowlist entries (see host-allowlist.ts); entries that do not parse are logged and left out. */
  hosts: readonly string[];
  log(line: string): void;
  /** The Node that runs the bridge inside the sandbox. */
  nodePath: string;
  /** The bridge program: the bundled sandbox-net-bridge.js, or the .ts source (run through tsx). Found beside this module when omitted. */
  bridgeEntry?: string;
  /** The bridge's port on the sandbox's loopback; 0 (default) lets it take a free one and advertise that. */
  port?: number;
  /** Hosts the agent reaches without the proxy (NO_PROXY), e.g. the desk's MCP relay on the sandbox's loopback. */
  noProxy?: readonly string[];
}

export interface AllowlistNetwork {
  /** The command line that runs `command` behind the bridge, with the proxy variables set for it. */
  wrap(command: string, args: string[]): { command: string; args: string[] };
  /** Paths to bind into the sandbox at the same place: the proxy's socket. */
  bindPaths: string[];
  /** Stops the proxy and ends every connection through it. */
  close(): Promise<void>;
}

/** Longest unix socket path Linux accepts (sun_path is 108 bytes with its terminating NUL); macOS allows 103. */
const MAX_SOCKET_PATH = process.platform === 'darwin' ? 103 : 107;

/**
 * Starts the egress proxy for one sandboxed agent. Refusals are logged once per host:port, as
 * `Network: refused api.evil.example:443 (not in the agent's allowlist): add "api.evil.example" to the policy's network to allow it.`
 */
export async function prepareAllowlistNetwork(options: AllowlistNetworkOptions): Promise<AllowlistNetwork> {
  const socketPath = join(options.dir, 'egress.sock');
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    throw new Error(`Network: the socket path ${socketPath} is longer than ${MAX_SOCKET_PATH} bytes; use a shorter task directory`);
  }
  const bridgeEntry = options.bridgeEntry ?? defaultBridgeEntry();
  const { rules, refused } = compileAllowlist(options.hosts);
  for (const entry of refused) options.log(`Network: ignored allowlist entry ${JSON.stringify(entry.entry)} (${entry.reason})`);

  const reported = new Set<string>();
  const proxy = await createEgressProxy({
    socketPath,
    allow: (host, port) => isAllowed(rules, host, port),
    onDecision: ({ host, port, allowed }) => {
      const target = `${host.includes(':') ? `[${host}]` : host}:${port}`;
      if (allowed || reported.has(target)) return;
      reported.add(target);
      // An entry without a port covers HTTPS and HTTP; any other port must be named.
      const entry = port === 443 || port === 80 ? target.slice(0, target.lastIndexOf(':')) : target;
      options.log(`Network: refused ${target} (not in the agent's allowlist): add "${entry}" to the policy's network to allow it.`);
    },
  });

  const launcher = bridgeLauncher(bridgeEntry);
  const port = String(options.port ?? 0);
  const noProxy = options.noProxy && options.noProxy.length > 0 ? ['--no-proxy', options.noProxy.join(',')] : [];
  // Loopback endpoints the allowlist names answer inside at their own address, for agents that ignore the proxy.
  const forwards = loopbackForwards(rules).flatMap((forward) => ['--forward', forwardArgument(forward)]);
  return {
    wrap: (command, args) => ({
      command: options.nodePath,
      args: [...launcher, '--socket', socketPath, '--port', port, ...noProxy, ...forwards, '--', command, ...args],
    }),
    bindPaths: [socketPath],
    close: () => proxy.close(),
  };
}

/** The Node arguments that run the bridge: the bundled file, or the source through tsx. */
export function bridgeLauncher(bridgeEntry = defaultBridgeEntry()): string[] {
  return bridgeEntry.endsWith('.ts') ? ['--import', tsxLoaderUrl(), bridgeEntry] : [bridgeEntry];
}

/** The bundled bridge beside the bundled desk (out/main, or out/main/chunks when this module lands in a chunk), else the source. */
function defaultBridgeEntry(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'sandbox-net-bridge.js'), join(here, '..', 'sandbox-net-bridge.js'), join(here, 'sandbox-net-bridge.ts')];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`Network: the sandbox network bridge is not built (looked for ${candidates.join(', ')})`);
  // In the packaged app the bridge is unpacked beside app.asar: the Node that runs it cannot read inside the archive.
  return found.replace(`app.asar${sep}`, `app.asar.unpacked${sep}`);
}

/** The bridge runs from the task's worktree, where a bare `--import tsx` would not resolve: name the loader by its URL. */
function tsxLoaderUrl(): string {
  const packageJson = createRequire(import.meta.url).resolve('tsx/package.json');
  return pathToFileURL(join(dirname(packageJson), 'dist', 'loader.mjs')).href;
}
