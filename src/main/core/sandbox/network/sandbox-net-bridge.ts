// Entry of the network bridge, run inside the sandbox as a wrapper: `sandbox-net-bridge --socket <path> --port <n> -- <command> <args…>`.
// `--plain` leaves the proxy variables alone (a bridge to the desk's MCP relay, not to the egress proxy);
// `--no-proxy <hosts>` names hosts the command reaches directly (the MCP relay's loopback port).
// It listens on 127.0.0.1:<n> in the sandbox's own network namespace, pipes each connection to the desk's egress
// proxy on the unix socket, and runs the command with stdio inherited and the proxy in its environment.
// Self-contained (Node built-ins only) so the bundled file runs on its own. It never writes to stdout: that is
// the agent's protocol stream. It writes to stderr with writeSync only, because opening process.stderr would make
// libuv switch the shared pipe to non-blocking under the child's feet.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { constants } from 'node:os';

const USAGE = 'usage: sandbox-net-bridge --socket <path> --port <0-65535> [--plain] [--no-proxy <hosts>] -- <command> [args…]';
/** Exit codes of a wrapper that failed itself, as env(1) uses them. */
const EXIT_BRIDGE_FAILED = 125;
const EXIT_CANNOT_RUN = 126;
const EXIT_NOT_FOUND = 127;
const FORWARDED_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

interface BridgeArgs { socketPath: string; port: number; command: string; args: string[]; plain: boolean; noProxy: string }

function say(line: string): void {
  try {
    writeSync(2, `sandbox-net-bridge: ${line}\n`);
  } catch {
    // Nowhere left to report to.
  }
}

function parseArgs(argv: readonly string[]): BridgeArgs | undefined {
  let socketPath: string | undefined;
  let port: number | undefined;
  let plain = false;
  let noProxy = '';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--socket') socketPath = argv[++i];
    else if (arg === '--plain') plain = true;
    else if (arg === '--no-proxy') noProxy = argv[++i] ?? '';
    else if (arg === '--port') port = /^\d{1,5}$/.test(argv[i + 1] ?? '') ? Number(argv[++i]) : undefined;
    else if (arg === '--') {
      const [command, ...args] = argv.slice(i + 1);
      if (!socketPath || port === undefined || port > 65535 || !command) return undefined;
      return { socketPath, port, command, args, plain, noProxy };
    } else return undefined;
  }
  return undefined;
}

/** The command's environment: every common spelling of the proxy variables, and no exceptions to them. */
function proxyEnvironment(env: NodeJS.ProcessEnv, port: number, noProxy: string): NodeJS.ProcessEnv {
  const url = `http://127.0.0.1:${port}`;
  return {
    ...env,
    HTTPS_PROXY: url, HTTP_PROXY: url, https_proxy: url, http_proxy: url, ALL_PROXY: url, all_proxy: url,
    NO_PROXY: noProxy, no_proxy: noProxy,
    NODE_USE_ENV_PROXY: '1',
  };
}

/** The command, once started; signals and our own exit are handled from the start so none falls between. */
let child: ChildProcess | undefined;

function handleSignalsAndExit(): void {
  for (const signal of FORWARDED_SIGNALS) {
    process.on(signal, () => {
      if (child) child.kill(signal);
      else process.exit(128 + (constants.signals[signal] ?? 0));
    });
  }
  // The child is in our process group (not detached); the sandbox's PID namespace ends it if we are killed outright.
  process.on('exit', () => {
    if (child) killIfRunning(child);
  });
  process.on('uncaughtException', (error) => {
    say(`failed: ${error.message}`);
    process.exit(EXIT_BRIDGE_FAILED);
  });
}

function runCommand(bridge: BridgeArgs, port: number): void {
  const env = bridge.plain ? process.env : proxyEnvironment(process.env, port, bridge.noProxy);
  const started = spawn(bridge.command, bridge.args, { stdio: 'inherit', env });
  child = started;
  started.on('error', (error: NodeJS.ErrnoException) => {
    say(`cannot run ${bridge.command}: ${error.message}`);
    process.exit(error.code === 'ENOENT' ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN);
  });
  started.on('exit', (code, signal) => exitLike(code, signal));
}

function killIfRunning(running: ChildProcess): void {
  if (running.exitCode === null && running.signalCode === null) running.kill('SIGKILL');
}

/** Exits the way the command did, so whoever waits on the sandbox sees the command's code or signal. */
function exitLike(code: number | null, signal: NodeJS.Signals | null): void {
  if (signal === null) process.exit(code ?? EXIT_BRIDGE_FAILED);
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
  // Some signals are ignored or cannot kill us here: fall back to the shell's convention.
  setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), 100);
}

function main(argv: readonly string[]): void {
  const bridge = parseArgs(argv);
  if (!bridge) {
    say(USAGE);
    process.exit(2);
  }
  handleSignalsAndExit();
  const server = createServer((client) => {
    const upstream = connect(bridge.socketPath);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  server.once('error', (error) => {
    say(`cannot listen on 127.0.0.1:${bridge.port}: ${error.message}`);
    process.exit(EXIT_BRIDGE_FAILED);
  });
  server.listen(bridge.port, '127.0.0.1', () => {
    server.on('error', (error) => say(`listener: ${error.message}`));
    runCommand(bridge, (server.address() as AddressInfo).port);
  });
}

main(process.argv.slice(2));
