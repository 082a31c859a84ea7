// Entry run inside a task's sandbox around its dev server: `dev-server-forwarder --socket <path> --port <n> -- <command> <args…>`.
// The sandbox has its own network, so the desk cannot reach the server's 127.0.0.1:<n>: this listens on a unix socket
// in the task's temp dir (the same file inside and out) and carries each connection to 127.0.0.1:<n> here, then runs
// the command with stdio inherited. Self-contained (Node built-ins only) so the bundled file runs on its own.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync, writeSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { constants } from 'node:os';
import { pipeBothWays } from '../sandbox/network/pipe-both-ways';

const USAGE = 'usage: dev-server-forwarder --socket <path> --port <1-65535> -- <command> [args…]';
const EXIT_FORWARDER_FAILED = 125;
const EXIT_NOT_FOUND = 127;
const FORWARDED_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

interface ForwarderArgs { socketPath: string; port: number; command: string; args: string[] }

function say(line: string): void {
  try {
    writeSync(2, `dev-server-forwarder: ${line}\n`);
  } catch {
    // Nowhere left to report to.
  }
}

function parseArgs(argv: readonly string[]): ForwarderArgs | undefined {
  let socketPath: string | undefined;
  let port: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--socket') socketPath = argv[++i];
    else if (arg === '--port') port = /^\d{1,5}$/.test(argv[i + 1] ?? '') ? Number(argv[++i]) : undefined;
    else if (arg === '--') {
      const [command, ...args] = argv.slice(i + 1);
      if (!socketPath || port === undefined || port < 1 || port > 65535 || !command) return undefined;
      return { socketPath, port, command, args };
    } else return undefined;
  }
  return undefined;
}

let child: ChildProcess | undefined;

function main(argv: readonly string[]): void {
  const forwarder = parseArgs(argv);
  if (!forwarder) {
    say(USAGE);
    process.exit(2);
  }
  for (const signal of FORWARDED_SIGNALS) {
    process.on(signal, () => {
      if (child) child.kill(signal);
      else process.exit(128 + (constants.signals[signal] ?? 0));
    });
  }
  process.on('exit', () => {
    rmSync(forwarder.socketPath, { force: true });
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  // Only loopback inside the sandbox: the server is never reached at any other address through here.
  const server = createServer((client) => {
    const upstream = connect(forwarder.port, '127.0.0.1');
    pipeBothWays(client, upstream);
  });
  server.once('error', (error) => {
    say(`cannot listen on ${forwarder.socketPath}: ${error.message}`);
    process.exit(EXIT_FORWARDER_FAILED);
  });
  rmSync(forwarder.socketPath, { force: true });
  server.listen(forwarder.socketPath, () => {
    const started = spawn(forwarder.command, forwarder.args, { stdio: 'inherit' });
    child = started;
    started.on('error', (error) => {
      say(`cannot run ${forwarder.command}: ${error.message}`);
      process.exit(EXIT_NOT_FOUND);
    });
    started.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] ?? 0 : 0)));
  });
}

main(process.argv.slice(2));
