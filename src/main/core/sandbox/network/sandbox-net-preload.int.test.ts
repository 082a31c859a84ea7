// The network bridge loaded into an agent's own Node, run directly (no sandbox): what the agent sees of it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNetworkBridge } from './network-bridge';

const bridge = createNetworkBridge({ nodePath: process.execPath, preloadEntry: resolve(import.meta.dirname, 'sandbox-net-preload.ts') });

let dir: string | undefined;
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

async function listening(server: Server, where: string | { port: number; host: string }): Promise<Server> {
  servers.push(server);
  await new Promise<void>((done) => server.listen(where, done));
  return server;
}

/** A unix socket that answers every connection with `greeting`. */
async function socketSaying(greeting: string): Promise<string> {
  dir ??= mkdtempSync(join(tmpdir(), 'preload-'));
  const socketPath = join(dir, `${servers.length}.sock`);
  await listening(createServer((socket) => socket.end(greeting)), socketPath);
  return socketPath;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as AddressInfo;
  await new Promise((done) => probe.close(done));
  return port;
}

/** Runs `code` as a Node agent behind the bridge with `flags`, as the sandbox would launch it. */
function agent(code: string, flags: string[], extraEnv: Record<string, string> = {}) {
  const launch = bridge.launch(process.execPath, ['-e', code], flags, process.env.PATH);
  const child = spawn(launch.command, launch.args, { env: { ...process.env, ...launch.env, ...extraEnv } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

const READ_FROM = (port: number) => `require('node:net').connect(${port}, '127.0.0.1').on('data', (d) => process.stdout.write(String(d))).on('error', (e) => console.log(e.code));`;

describe('the network bridge inside an agent\'s Node', () => {
  it('pipes a connection to a relay port through to its socket, and the agent then exits on its own', async () => {
    const port = await freePort();
    const result = await agent(READ_FROM(port), ['--relay', `${port}=${await socketSaying('relay says hi')}`]);
    expect(result).toEqual({ code: 0, stdout: 'relay says hi', stderr: '' });
  });

  it('names the proxy in the agent\'s variables before its code runs, and takes its own variable away', async () => {
    const code = `const u = new URL(process.env.HTTPS_PROXY); console.log(process.env.DESK_NET_BRIDGE ?? 'gone', process.env.NO_PROXY, process.env.NODE_USE_ENV_PROXY);`
      + ` require('node:net').connect(Number(u.port), u.hostname).on('data', (d) => console.log(String(d)));`;
    const result = await agent(code, ['--socket', await socketSaying('proxy says hi'), '--port', '0', '--no-proxy', '127.0.0.1']);
    expect(result).toEqual({ code: 0, stdout: 'gone 127.0.0.1 1\nproxy says hi\n', stderr: '' });
  });

  it('has a proxy on a fixed port in the environment its Node started with (which NODE_USE_ENV_PROXY reads)', async () => {
    const port = await freePort();
    const code = `const start = require('node:fs').readFileSync('/proc/self/environ', 'utf8').split('\\0');`
      + ` console.log(start.includes('HTTPS_PROXY=http://127.0.0.1:${port}'), start.includes('NODE_USE_ENV_PROXY=1'));`;
    const result = await agent(code, ['--socket', await socketSaying('proxy says hi'), '--port', String(port)]);
    expect(result).toEqual({ code: 0, stdout: 'true true\n', stderr: '' });
  });

  it('serves the proxy to a child process while the agent waits for that child synchronously', async () => {
    const child = `const u = new URL(process.env.HTTPS_PROXY); require('node:net').connect(Number(u.port), u.hostname).on('data', (d) => process.stdout.write(String(d)));`;
    const code = `process.stdout.write(require('node:child_process').execFileSync(process.execPath, ['-e', ${JSON.stringify(child)}], { timeout: 10000 }));`;
    const result = await agent(code, ['--socket', await socketSaying('proxy to the child'), '--port', '0']);
    expect(result).toEqual({ code: 0, stdout: 'proxy to the child', stderr: '' });
  });

  it('exits with the agent\'s own code and writes nothing of its own', async () => {
    const port = await freePort();
    expect(await agent('process.exit(7)', ['--relay', `${port}=${await socketSaying('x')}`])).toEqual({ code: 7, stdout: '', stderr: '' });
  });

  it('says nothing when its port is already served, and the agent reaches whoever serves it', async () => {
    const port = await freePort();
    await listening(createServer((socket) => socket.end('first listener')), { port, host: '127.0.0.1' });
    const result = await agent(READ_FROM(port), ['--relay', `${port}=${await socketSaying('second')}`]);
    expect(result).toEqual({ code: 0, stdout: 'first listener', stderr: '' });
  });

  it('serves an agent that relaunches itself with its own Node options through the parent\'s listener', async () => {
    const port = await freePort();
    const relaunch = `const c = require('node:child_process').spawn(process.execPath, [...process.execArgv, '-e', ${JSON.stringify(READ_FROM(port))}], { stdio: 'inherit' });`
      + ` c.on('exit', (code) => process.exit(code));`;
    const result = await agent(relaunch, ['--relay', `${port}=${await socketSaying('through the parent')}`]);
    expect(result).toEqual({ code: 0, stdout: 'through the parent', stderr: '' });
  });

  it('lets the agent\'s own worker threads, which load the preload too, run quietly beside the bridge\'s', async () => {
    const code = `const { Worker } = require('node:worker_threads');`
      + ` new Worker('console.log(\\'worker ran\\', Boolean(process.env.HTTPS_PROXY))', { eval: true }).on('exit', (code) => process.exit(code));`;
    const result = await agent(code, ['--socket', await socketSaying('x'), '--port', '0']);
    expect(result).toEqual({ code: 0, stdout: 'worker ran true\n', stderr: '' });
  });

  it('tells on stderr, not stdout, when its settings are not bridge flags, and lets the agent run', async () => {
    const result = await agent('console.log("agent ran")', ['--relay', '1=x'], { DESK_NET_BRIDGE: '{"not":"flags"}' });
    expect(result.stdout).toBe('agent ran\n');
    expect(result.stderr).toContain('DESK_NET_BRIDGE is not a list of bridge flags');
  });
});
