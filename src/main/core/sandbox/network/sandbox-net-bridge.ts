// Entry of the network bridge run inside the sandbox as a wrapper, for agents that are not Node scripts (those load
// ./sandbox-net-preload.ts into their own Node instead): `sandbox-net-bridge <flags> -- <command> <args…>`.
// `--socket <path> --port <n>`: the egress proxy, reached at 127.0.0.1:<n> and named in the command's proxy variables;
// `--plain` makes that socket a relay instead (no proxy variables); `--no-proxy <hosts>` names hosts the command
// reaches directly; `--forward <addr>:<port>=<host>:<port>` (repeatable) has the proxy tunnel a loopback port to its
// target; `--relay <port>=<socket>` (repeatable) pipes a loopback port to a socket (the desk's MCP relay).
// It runs the command with stdio inherited. It never writes to stdout: that is the agent's protocol stream. It writes
// to stderr with writeSync only, because opening process.stderr would make libuv switch the shared pipe to
// non-blocking under the child's feet.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeSync } from 'node:fs';
import { constants } from 'node:os';
import { BRIDGE_USAGE, parseBridgeFlags, proxyVariables, type BridgeSettings } from './bridge-settings';
import { openBridgeListeners } from './bridge-listeners';

/** Exits of a wrapper that failed itself, as env(1) uses them. */
const EXIT_BRIDGE_FAILED = 125;
const EXIT_CANNOT_RUN = 126;
const EXIT_NOT_FOUND = 127;
const FORWARDED_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

function say(line: string): void {
  try {
    writeSync(2, `sandbox-net-bridge: ${line}\n`);
  } catch {
    // Nowhere left to report to.
  }
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

function runCommand(settings: BridgeSettings, proxyPort: number | undefined, [command = '', ...args]: string[]): void {
  const env = settings.proxy && proxyPort !== undefined ? { ...process.env, ...proxyVariables(proxyPort, settings.proxy.noProxy) } : process.env;
  const started = spawn(command, args, { stdio: 'inherit', env });
  child = started;
  started.on('error', (error: NodeJS.ErrnoException) => {
    say(`cannot run ${command}: ${error.message}`);
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

async function main(argv: readonly string[]): Promise<void> {
  const parsed = parseBridgeFlags(argv);
  if (!parsed?.rest || parsed.rest.length === 0) {
    say(BRIDGE_USAGE);
    process.exit(2);
  }
  handleSignalsAndExit();
  const { proxyPort, failures } = await openBridgeListeners(parsed.settings, { unref: false });
  for (const failure of failures) {
    // A forward to ::1 in a sandbox without IPv6 is simply left out.
    if (!failure.essential && (failure.error.code === 'EADDRNOTAVAIL' || failure.error.code === 'EAFNOSUPPORT')) continue;
    say(`cannot listen on ${failure.address}:${failure.port}: ${failure.error.message}`);
    if (failure.essential) process.exit(EXIT_BRIDGE_FAILED);
  }
  runCommand(parsed.settings, proxyPort, parsed.rest);
}

void main(process.argv.slice(2));
