// An allowlisted network for a command in a real bubblewrap sandbox without network: only the proxy gets out, through
// the bridge inside a Node command's own process or, for any other command, the bridge's wrapper.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareAllowlistNetwork, type AllowlistNetwork } from './sandbox-network';
import { createNetworkBridge } from './network-bridge';

const bridge = createNetworkBridge({
  nodePath: process.execPath,
  wrapperEntry: resolve(import.meta.dirname, 'sandbox-net-bridge.ts'),
  preloadEntry: resolve(import.meta.dirname, 'sandbox-net-preload.ts'),
});

/** Why bubblewrap cannot be used here, or undefined when it can (the lead's sandbox probe replaces this later). */
function bwrapUnavailable(): string | undefined {
  const probe = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-net', '--unshare-pid', '--die-with-parent', 'true'], { encoding: 'utf8' });
  if (probe.error) return `bwrap not found (${probe.error.message})`;
  if (probe.status !== 0) return `bwrap cannot create namespaces here: ${probe.stderr.trim()}`;
  return undefined;
}
const skipReason = process.platform === 'linux' ? bwrapUnavailable() : 'bubblewrap is Linux only';
const hasCurl = spawnSync('sh', ['-c', 'command -v curl']).status === 0;

interface Target { port: number; connections: number; server: Server | HttpServer }

async function listen(server: Server | HttpServer): Promise<Target> {
  const target: Target = { port: 0, connections: 0, server };
  server.on('connection', () => { target.connections += 1; });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  target.port = (server.address() as AddressInfo).port;
  return target;
}

// Node 20 fetch ignores proxy variables, so the client names HTTP_PROXY itself; that proves the bridge set it.
// Its own Agent: on Node 22.21+ the bridge's NODE_USE_ENV_PROXY makes the default agent send every request through
// HTTP_PROXY by itself, and a request already addressed to the proxy would then be proxied twice.
const GET_THROUGH_PROXY = `
const http = require('node:http');
const proxy = new URL(process.env.HTTP_PROXY);
const url = process.argv[1];
http.request({ agent: new http.Agent(), host: proxy.hostname, port: proxy.port, path: url, headers: { host: new URL(url).host } }, (res) => {
  let body = '';
  res.on('data', (chunk) => { body += chunk; });
  res.on('end', () => console.log(res.statusCode + ' ' + body.trim()));
}).on('error', (error) => console.log('error ' + error.code)).end();
`;
const CONNECT_THROUGH_PROXY = `
const http = require('node:http');
const proxy = new URL(process.env.HTTPS_PROXY);
http.request({ agent: new http.Agent(), host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: process.argv[1] }).on('connect', (res, socket) => {
  if (res.statusCode !== 200) { console.log(res.statusCode); socket.destroy(); return; }
  socket.once('data', (data) => { console.log(res.statusCode + ' ' + data); socket.destroy(); });
  socket.write('ping');
}).on('error', (error) => console.log('error ' + error.code)).end();
`;
// A Node agent that names no proxy at all: Node's own http and fetch follow the bridge's NODE_USE_ENV_PROXY.
const GET_PLAINLY = `
const url = process.argv[1];
require('node:http').get(url + '/http', (res) => {
  let body = '';
  res.on('data', (chunk) => { body += chunk; });
  res.on('end', async () => {
    console.log(res.statusCode + ' ' + body.trim());
    const fetched = await fetch(url + '/fetch').then(async (r) => r.status + ' ' + (await r.text()).trim(), (error) => 'error ' + (error.cause?.code ?? error.message));
    console.log(fetched);
  });
}).on('error', (error) => console.log('error ' + error.code));
`;
/**
 * A Node program with the bridge inside it learns of the proxy after its start, which only Nodes with
 * http.setGlobalProxyFromEnv can be told (its children, started after, follow NODE_USE_ENV_PROXY from 22.21 and 24.5).
 */
const nodeUsesEnvProxy = typeof (http as { setGlobalProxyFromEnv?: unknown }).setGlobalProxyFromEnv === 'function';
const CONNECT_DIRECTLY = `
require('node:net').connect(Number(process.argv[1]), '127.0.0.1')
  .on('connect', () => { console.log('connected'); process.exit(0); })
  .on('error', (error) => console.log(error.code));
`;

describe.skipIf(skipReason !== undefined)(`an allowlisted network in bubblewrap${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let web: Target;
  let echo: Target;
  let forbidden: Target;
  let dir: string;
  let network: AllowlistNetwork;
  const logged: string[] = [];
  const launches: string[] = [];

  beforeAll(async () => {
    web = await listen(createHttpServer((request, response) => response.end(`hello from ${request.url}`)));
    echo = await listen(createTcpServer((socket) => socket.on('error', () => undefined).pipe(socket)));
    forbidden = await listen(createHttpServer((_request, response) => response.end('should never be reached')));
    dir = mkdtempSync(join(tmpdir(), 'sbx-net-'));
    network = await prepareAllowlistNetwork({
      dir,
      hosts: [`127.0.0.1:${web.port}`, `127.0.0.1:${echo.port}`, 'not a host'],
      log: (line) => logged.push(line),
    });
  });

  afterAll(async () => {
    await network?.close();
    await Promise.all([web, echo, forbidden].map((t) => new Promise((done) => t?.server.close(done))));
    rmSync(dir, { recursive: true, force: true });
  });

  function sandboxed(command: string, args: string[], stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const wrapped = bridge.launch(command, args, network.bridgeFlags, process.env.PATH);
    launches.push(wrapped.kind);
    const binds = network.bindPaths.flatMap((path) => ['--bind', path, path]);
    const env = Object.entries(wrapped.env ?? {}).flatMap(([name, value]) => ['--setenv', name, value]);
    const child = spawn('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-net', '--unshare-pid',
      '--die-with-parent', ...binds, ...env, wrapped.command, ...wrapped.args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.stdin.end(stdin);
    return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
  }

  it('reaches an allowed host through the proxy, by absolute URI and by CONNECT', async () => {
    const get = await sandboxed(process.execPath, ['-e', GET_THROUGH_PROXY, `http://127.0.0.1:${web.port}/hello`]);
    expect(get.stdout.trim()).toBe('200 hello from /hello');
    const tunnel = await sandboxed(process.execPath, ['-e', CONNECT_THROUGH_PROXY, `127.0.0.1:${echo.port}`]);
    expect(tunnel.stdout.trim()).toBe('200 ping');
  });

  it.skipIf(!hasCurl)('lets curl reach an allowed host from the proxy variables alone', async () => {
    const curl = await sandboxed('curl', ['-sS', '-w', ' %{http_code}', `http://127.0.0.1:${web.port}/curl`]);
    expect(curl.stdout).toBe('hello from /curl 200');
  });

  it.skipIf(!nodeUsesEnvProxy)(`lets a Node agent's own http and fetch reach an allowed host with no proxy named${nodeUsesEnvProxy ? '' : ` (skipped: Node ${process.versions.node} has no http.setGlobalProxyFromEnv)`}`, async () => {
    const plain = await sandboxed(process.execPath, ['-e', GET_PLAINLY, `http://127.0.0.1:${web.port}`]);
    expect(plain.stdout.trim().split('\n')).toEqual(['200 hello from /http', '200 hello from /fetch']);
  });

  it('refuses a host that is not listed with 403, logs it once, and never connects to it', async () => {
    const first = await sandboxed(process.execPath, ['-e', GET_THROUGH_PROXY, `http://127.0.0.1:${forbidden.port}/`]);
    const second = await sandboxed(process.execPath, ['-e', CONNECT_THROUGH_PROXY, `127.0.0.1:${forbidden.port}`]);
    expect(first.stdout).toMatch(/^403 Network: 127\.0\.0\.1:\d+ is not in this agent's allowlist/);
    expect(second.stdout.trim()).toBe('403');
    expect(forbidden.connections).toBe(0);
    expect(logged.filter((line) => line.startsWith('Network: refused'))).toEqual([
      `Network: refused 127.0.0.1:${forbidden.port} (not in the agent's allowlist): add "127.0.0.1:${forbidden.port}" to the policy's network to allow it.`,
    ]);
  });

  it('cannot reach the host\'s loopback directly: the sandbox has its own', async () => {
    const direct = await sandboxed(process.execPath, ['-e', CONNECT_DIRECTLY, String(forbidden.port)]);
    expect(direct.stdout.trim()).toBe('ECONNREFUSED');
    expect(forbidden.connections).toBe(0);
  });

  it('answers a loopback endpoint the allowlist names at its own address, for clients that ignore the proxy', async () => {
    const fetched = await sandboxed(process.execPath, ['-e', `fetch('http://127.0.0.1:${web.port}/direct').then(async (r) => console.log(r.status, await r.text()))`]);
    expect(fetched.stdout.trim()).toBe('200 hello from /direct');
  });

  it('passes stdin and stdout straight through and exits with the command\'s code', async () => {
    expect(await sandboxed('cat', [], 'ping\n{"jsonrpc":"2.0"}\n')).toMatchObject({ code: 0, stdout: 'ping\n{"jsonrpc":"2.0"}\n' });
    expect((await sandboxed('sh', ['-c', 'exit 7'])).code).toBe(7);
  });

  it('runs the bridge inside a Node command and as the wrapper of any other', async () => {
    launches.length = 0;
    await sandboxed(process.execPath, ['-e', '0']);
    await sandboxed('cat', []);
    expect(launches).toEqual(['node-preload', 'wrapper']);
  });

  it('leaves a Node command no bridge variable to read and nothing on stdout but its own', async () => {
    const seen = await sandboxed(process.execPath, ['-e', `console.log(JSON.stringify(process.env.DESK_NET_BRIDGE ?? null))`]);
    expect(seen).toMatchObject({ code: 0, stdout: 'null\n', stderr: '' });
  });

  it('logs allowlist entries it cannot parse instead of widening them', () => {
    expect(logged).toContain('Network: ignored allowlist entry "not a host" (contains whitespace)');
  });
});
