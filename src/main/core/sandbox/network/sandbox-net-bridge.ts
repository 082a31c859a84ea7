// Entry of the network bridge, run inside the sandbox as a wrapper: `sandbox-net-bridge --socket <path> --port <n> -- <command> <args…>`.
// `--plain` leaves the proxy variables alone (a bridge to the desk's MCP relay, not to the egress proxy);
// `--no-proxy <hosts>` names hosts the command reaches directly (the MCP relay's loopback port);
// `--forward <addr>:<port>=<host>:<port>` (repeatable) also listens on that loopback port and has the proxy tunnel
// each connection to the target (CONNECT), so a loopback endpoint the allowlist names answers at its own address.
// It listens on 127.0.0.1:<n> in the sandbox's own network namespace, pipes each connection to the desk's egress
// proxy on the unix socket, and runs the command with stdio inherited and the proxy in its environment.
// Self-contained (Node built-ins only) so the bundled file runs on its own. It never writes to stdout: that is
// the agent's protocol stream. It writes to stderr with writeSync only, because opening process.stderr would make
// libuv switch the shared pipe to non-blocking under the child's feet.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { constants } from 'node:os';

const USAGE = 'usage: sandbox-net-bridge --socket <path> --port <0-65535> [--plain] [--no-proxy <hosts>] [--forward <addr>:<port>=<host>:<port>]… -- <command> [args…]';
/** Exit codes of a wrapper that failed itself, as env(1) uses them. */
const EXIT_BRIDGE_FAILED = 125;
const EXIT_CANNOT_RUN = 126;
const EXIT_NOT_FOUND = 127;
const FORWARDED_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

interface Forward { address: string; port: number; target: string }
interface BridgeArgs { socketPath: string; port: number; command: string; args: string[]; plain: boolean; noProxy: string; forwards: Forward[] }
/** The longest proxy answer to a CONNECT we wait for before giving up on it. */
const MAX_CONNECT_REPLY = 8192;

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
  const forwards: Forward[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--socket') socketPath = argv[++i];
    else if (arg === '--plain') plain = true;
    else if (arg === '--no-proxy') noProxy = argv[++i] ?? '';
    else if (arg === '--forward') {
      const forward = parseForward(argv[++i] ?? '');
      if (!forward) return undefined;
      forwards.push(forward);
    }
    else if (arg === '--port') port = /^\d{1,5}$/.test(argv[i + 1] ?? '') ? Number(argv[++i]) : undefined;
    else if (arg === '--') {
      const [command, ...args] = argv.slice(i + 1);
      if (!socketPath || port === undefined || port > 65535 || !command) return undefined;
      return { socketPath, port, command, args, plain, noProxy, forwards };
    } else return undefined;
  }
  return undefined;
}

/** `127.0.0.1:8080=localhost:8080` or `[::1]:8080=[::1]:8080`; only loopback listeners. */
function parseForward(text: string): Forward | undefined {
  const match = /^(127\.0\.0\.1|\[::1\]):(\d{1,5})=(\S+:\d{1,5})$/.exec(text);
  if (!match) return undefined;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return undefined;
  return { address: match[1] === '[::1]' ? '::1' : '127.0.0.1', port, target: match[3] ?? '' };
}

/**
 * Asks the proxy on the socket for a tunnel to `target`, then pipes `client` through it. Whatever the proxy
 * refuses (403: not named) ends the client's connection; the proxy logs the refusal for the person.
 */
function tunnelThroughProxy(client: Socket, socketPath: string, target: string): void {
  client.pause();
  const upstream = connect(socketPath);
  const fail = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', fail);
  upstream.on('error', fail);
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
  upstream.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
  let reply = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    reply = Buffer.concat([reply, chunk]);
    const end = reply.indexOf('\r\n\r\n');
    if (end < 0) {
      if (reply.length > MAX_CONNECT_REPLY) fail();
      return;
    }
    upstream.off('data', onData);
    if (!/^HTTP\/1\.[01] 200 /.test(reply.subarray(0, end).toString('latin1'))) return fail();
    const rest = reply.subarray(end + 4);
    if (rest.length > 0) client.write(rest);
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
  };
  upstream.on('data', onData);
}

/** Opens the loopback listeners; one that cannot listen (no IPv6 in the sandbox) is reported and left out. */
function listenForwards(bridge: BridgeArgs): Promise<void> {
  return Promise.all(bridge.forwards.map((forward) => new Promise<void>((done) => {
    const server = createServer((client) => tunnelThroughProxy(client, bridge.socketPath, forward.target));
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRNOTAVAIL' && error.code !== 'EAFNOSUPPORT') say(`cannot listen on ${forward.address}:${forward.port}: ${error.message}`);
      done();
    });
    server.listen(forward.port, forward.address, () => {
      server.on('error', (error) => say(`listener: ${error.message}`));
      done();
    });
  }))).then(() => undefined);
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
  // The named loopback ports first, so the proxy's own port (0: any free one) cannot take one of them.
  void listenForwards(bridge).then(() => {
    server.listen(bridge.port, '127.0.0.1', () => {
      server.on('error', (error) => say(`listener: ${error.message}`));
      runCommand(bridge, (server.address() as AddressInfo).port);
    });
  });
}

main(process.argv.slice(2));
