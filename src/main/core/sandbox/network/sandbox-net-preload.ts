// The network bridge inside an agent's own Node (`node --require <this .cjs> <script>`): the same listeners as the
// ./sandbox-net-bridge.ts wrapper without a Node start of their own. A CommonJS script, not an ES module: loaded with
// `--require` it spares a CommonJS agent (the scripted one) Node's ES-module loader. Its flags come in
// BRIDGE_SETTINGS_VARIABLE, which it deletes before the agent's code runs; it sets the proxy variables as the wrapper
// did for its command.
// A relay alone (the desk's MCP server, which the agent itself calls) is served from the agent's thread: its port
// is bound on the first tick, before any connection the agent could start (Node defers connects to a tick too, and
// the agent learns the relay's URL from `session/new`, on stdin). The egress proxy is served from a worker thread,
// which this waits for synchronously: the agent's child processes use the proxy, and an agent that waits for one
// synchronously (execSync) would otherwise stall the very bridge that child needs.
// Quiet by design: never a byte on stdout (the agent's protocol stream), stderr only when the agent is left without
// its way out; listeners and the worker unref'd so the agent exits exactly when it would have; a second load (an agent
// relaunching itself with process.execArgv) finds its settings gone, and one in a worker of the agent's own does
// nothing. Node's http and worker_threads modules load only when the settings name a proxy.
import { writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Http from 'node:http';
import type * as WorkerThreads from 'node:worker_threads';
import { BRIDGE_SETTINGS_VARIABLE, parseBridgeFlags, proxyVariables } from './bridge-settings';
import { openInWorkerSync, openListeners, readFlags, serveFromWorker, type Opened } from './bridge-worker';

// This file is both the preload and its worker's entry: one file, already read from disk.
const here = __filename;
const nodeRequire = createRequire(here);

function say(line: string): void {
  try {
    writeSync(2, `sandbox-net-bridge: ${line}\n`);
  } catch {
    // Nowhere left to report to.
  }
}

function report({ failures }: Opened): void {
  for (const failure of failures) {
    if (failure.code === 'EADDRINUSE' || failure.code === 'EADDRNOTAVAIL' || failure.code === 'EAFNOSUPPORT') continue;
    say(`cannot listen on ${failure.address}:${failure.port}: ${failure.message}`);
  }
}

function startBridge(text: string): void {
  delete process.env[BRIDGE_SETTINGS_VARIABLE];
  const flags = readFlags(text);
  const parsed = flags ? parseBridgeFlags(flags) : undefined;
  if (!flags || !parsed || parsed.rest !== undefined) return say(`${BRIDGE_SETTINGS_VARIABLE} is not a list of bridge flags; the agent runs without the desk's network.`);
  const proxy = parsed.settings.proxy;
  if (!proxy) {
    void openListeners(parsed.settings, true).then(report);
    return;
  }
  const opened = openInWorkerSync(nodeRequire('node:worker_threads') as typeof WorkerThreads, here, flags);
  report(opened);
  if (opened.proxyPort === undefined) return;
  Object.assign(process.env, proxyVariables(opened.proxyPort, proxy.noProxy));
  // NODE_USE_ENV_PROXY is read at Node's start, before this runs; Nodes that can be told later are told here.
  const http = nodeRequire('node:http') as typeof Http & { setGlobalProxyFromEnv?: () => unknown };
  http.setGlobalProxyFromEnv?.();
}

const settings = process.env[BRIDGE_SETTINGS_VARIABLE];
if (settings !== undefined) startBridge(settings);
else {
  const threads = nodeRequire('node:worker_threads') as typeof WorkerThreads;
  if (!threads.isMainThread) serveFromWorker(threads);
}
