// The network bridge inside an agent's own Node (`node --import <this, as a file URL> <script>`): the same listeners
// as the ./sandbox-net-bridge.ts wrapper without a Node start of their own. Its flags come in BRIDGE_SETTINGS_VARIABLE,
// which it deletes before the agent's code runs; it sets the proxy variables as the wrapper did for its command.
// A relay alone (the desk's MCP server, which the agent itself calls) is served from the agent's thread. The egress
// proxy is served from a worker thread: the agent's child processes use it, and an agent that waits for one
// synchronously (execSync) would otherwise stall the very bridge that child needs.
// Quiet by design: never a byte on stdout (the agent's protocol stream), stderr only when the agent is left without
// its way out; listeners and the worker unref'd so the agent exits exactly when it would have; a second load (an agent
// relaunching itself with process.execArgv) finds the ports taken by its parent, which serves them, and says nothing.
import { writeSync } from 'node:fs';
import * as http from 'node:http';
import { isMainThread, Worker } from 'node:worker_threads';
import { BRIDGE_SETTINGS_VARIABLE, parseBridgeFlags, proxyVariables } from './bridge-settings';
import { openListeners, readFlags, serveFromWorker, WORKER_MARK, type Opened } from './bridge-worker';

function say(line: string): void {
  try {
    writeSync(2, `sandbox-net-bridge: ${line}\n`);
  } catch {
    // Nowhere left to report to.
  }
}

/** The preload is its worker's entry too: one file, already loaded from disk. */
function startWorker(flags: string[]): Worker {
  return new Worker(new URL(import.meta.url), { workerData: { [WORKER_MARK]: flags }, execArgv: [], stdout: false, stderr: false });
}

function openInWorker(flags: string[]): Promise<Opened> {
  const worker = startWorker(flags);
  worker.unref();
  const failed = (message: string): Opened => ({ proxyPort: undefined, failures: [{ address: 'its worker', port: 0, code: '', message }] });
  return new Promise((resolve) => {
    worker.once('message', (opened: Opened) => resolve(opened));
    worker.once('error', (error) => resolve(failed(error.message)));
    worker.once('exit', () => resolve(failed('the worker ended')));
  });
}

async function startBridge(): Promise<void> {
  const text = process.env[BRIDGE_SETTINGS_VARIABLE];
  if (text === undefined) return;
  delete process.env[BRIDGE_SETTINGS_VARIABLE];
  const flags = readFlags(text);
  const parsed = flags ? parseBridgeFlags(flags) : undefined;
  if (!flags || !parsed || parsed.rest !== undefined) return say(`${BRIDGE_SETTINGS_VARIABLE} is not a list of bridge flags; the agent runs without the desk's network.`);
  const proxy = parsed.settings.proxy;
  const { proxyPort, failures } = proxy ? await openInWorker(flags) : await openListeners(parsed.settings, true);
  for (const failure of failures) {
    if (failure.code === 'EADDRINUSE' || failure.code === 'EADDRNOTAVAIL' || failure.code === 'EAFNOSUPPORT') continue;
    say(`cannot listen on ${failure.address}:${failure.port}: ${failure.message}`);
  }
  if (!proxy || proxyPort === undefined) return;
  Object.assign(process.env, proxyVariables(proxyPort, proxy.noProxy));
  // NODE_USE_ENV_PROXY is read at Node's start, before this runs; Nodes that can be told later are told here.
  const later = (http as { setGlobalProxyFromEnv?: () => unknown }).setGlobalProxyFromEnv;
  later?.();
}

if (isMainThread) await startBridge();
else serveFromWorker();
