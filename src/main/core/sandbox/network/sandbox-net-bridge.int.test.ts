// The network bridge as a wrapper, run directly (no sandbox): what it passes to and from the command it runs.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const BRIDGE_SOURCE = resolve(import.meta.dirname, 'sandbox-net-bridge.ts');
const TSX_LOADER = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'loader.mjs')).href;

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function bridge(args: string[]) {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, BRIDGE_SOURCE, ...args]);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((done) => {
    child.on('close', (code, signal) => done({ code, signal, stdout, stderr }));
  });
  const printed = (text: string): Promise<void> => new Promise((done) => {
    const check = (): void => {
      if (stdout.includes(text)) done();
      else child.stdout.once('data', check);
    };
    check();
  });
  return { child, exited, printed };
}

describe('the sandbox network bridge', () => {
  it('pipes a connection to its loopback port through to the unix socket', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bridge-'));
    const socketPath = join(dir, 'proxy.sock');
    const proxy = createServer((socket) => socket.end('proxy says hi'));
    await new Promise<void>((done) => proxy.listen(socketPath, done));
    const client = `const u = new URL(process.env.ALL_PROXY); require('node:net').connect(Number(u.port), u.hostname).on('data', (d) => console.log(String(d)));`;
    const run = bridge(['--socket', socketPath, '--port', '0', '--', process.execPath, '-e', client]);
    expect(await run.exited).toMatchObject({ code: 0, stdout: 'proxy says hi\n' });
    await new Promise((done) => proxy.close(done));
  });

  it('serves the proxy and a relay from one process: each port pipes to its own socket', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bridge-'));
    const proxySocket = join(dir, 'proxy.sock');
    const relaySocket = join(dir, 'relay.sock');
    const proxy = createServer((socket) => socket.end('proxy'));
    const relay = createServer((socket) => socket.end('relay'));
    await Promise.all([new Promise<void>((done) => proxy.listen(proxySocket, done)), new Promise<void>((done) => relay.listen(relaySocket, done))]);
    const relayPort = await freePort();
    const read = (port: string) => `new Promise((done) => require('node:net').connect(${port}, '127.0.0.1').on('data', (d) => done(String(d))))`;
    const client = `Promise.all([${read('new URL(process.env.HTTP_PROXY).port')}, ${read(String(relayPort))}]).then((got) => console.log(got.join(' ')));`;
    const run = bridge(['--socket', proxySocket, '--port', '0', '--relay', `${relayPort}=${relaySocket}`, '--', process.execPath, '-e', client]);
    expect(await run.exited).toMatchObject({ code: 0, stdout: 'proxy relay\n' });
    await Promise.all([new Promise((done) => proxy.close(done)), new Promise((done) => relay.close(done))]);
  });

  it('runs a command behind a relay alone, with no proxy variables set for it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bridge-'));
    const relaySocket = join(dir, 'relay.sock');
    const relay = createServer((socket) => socket.end('relay only'));
    await new Promise<void>((done) => relay.listen(relaySocket, done));
    const relayPort = await freePort();
    const client = `require('node:net').connect(${relayPort}, '127.0.0.1').on('data', (d) => console.log(String(d), process.env.HTTP_PROXY ?? 'no proxy'));`;
    const run = bridge(['--relay', `${relayPort}=${relaySocket}`, '--', process.execPath, '-e', client]);
    expect(await run.exited).toMatchObject({ code: 0, stdout: 'relay only no proxy\n' });
    await new Promise((done) => relay.close(done));
  });

  /** A stand-in proxy: answers CONNECT with `status`, then echoes what comes through the tunnel, naming its target. */
  async function connectProxy(socketPath: string, status: string) {
    const targets: string[] = [];
    const proxy = createServer((socket) => {
      socket.once('data', (head: Buffer) => {
        const target = /^CONNECT (\S+) /.exec(head.toString())?.[1] ?? '?';
        targets.push(target);
        if (!status.startsWith('200')) return void socket.end(`HTTP/1.1 ${status}\r\n\r\n`);
        socket.write(`HTTP/1.1 ${status}\r\n\r\n`);
        socket.on('data', (data: Buffer) => socket.end(`${target} got ${data.toString()}`));
      });
    });
    await new Promise<void>((done) => proxy.listen(socketPath, done));
    return { proxy, targets };
  }

  async function freePort(): Promise<number> {
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    const { port } = probe.address() as { port: number };
    await new Promise((done) => probe.close(done));
    return port;
  }

  // Prints what came back before the connection closed; a reset (the bridge closing on unread input) is a close too.
  const talkTo = (port: number) => `const s = require('node:net').connect(${port}, '127.0.0.1', () => s.write('ping'));`
    + ` let got = ''; s.on('data', (d) => { got += d; }); s.on('close', () => console.log(got || 'closed empty')); s.on('error', () => undefined);`;

  it('tunnels a connection to a forwarded loopback port through the proxy to the named target', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bridge-'));
    const socketPath = join(dir, 'proxy.sock');
    const { proxy, targets } = await connectProxy(socketPath, '200 Connection Established');
    const port = await freePort();
    const run = bridge(['--socket', socketPath, '--port', '0', '--forward', `127.0.0.1:${port}=localhost:${port}`, '--', process.execPath, '-e', talkTo(port)]);
    expect(await run.exited).toMatchObject({ code: 0, stdout: `localhost:${port} got ping\n` });
    expect(targets).toEqual([`localhost:${port}`]);
    await new Promise((done) => proxy.close(done));
  });

  it('closes a forwarded connection the proxy refuses, passing none of its answer on', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bridge-'));
    const socketPath = join(dir, 'proxy.sock');
    const { proxy } = await connectProxy(socketPath, '403 Forbidden');
    const port = await freePort();
    const run = bridge(['--socket', socketPath, '--port', '0', '--forward', `127.0.0.1:${port}=127.0.0.1:${port}`, '--', process.execPath, '-e', talkTo(port)]);
    expect(await run.exited).toMatchObject({ code: 0, stdout: 'closed empty\n' });
    await new Promise((done) => proxy.close(done));
  });

  it('refuses a forward that would listen beyond loopback', async () => {
    const result = await bridge(['--socket', '/nonexistent.sock', '--port', '0', '--forward', '0.0.0.0:80=example.com:80', '--', 'true']).exited;
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toContain('usage: sandbox-net-bridge');
  });

  it('forwards SIGTERM to the command and exits with the command\'s code', async () => {
    const run = bridge(['--socket', '/nonexistent.sock', '--port', '0', '--', 'sh', '-c', 'trap "echo got TERM; exit 3" TERM; echo ready; while :; do sleep 0.05; done']);
    await run.printed('ready');
    run.child.kill('SIGTERM');
    expect(await run.exited).toMatchObject({ code: 3, stdout: 'ready\ngot TERM\n' });
  });

  it('dies of the same signal as the command', async () => {
    const run = bridge(['--socket', '/nonexistent.sock', '--port', '0', '--', 'sh', '-c', 'kill -KILL $$']);
    expect(await run.exited).toMatchObject({ code: null, signal: 'SIGKILL' });
  });

  it('exits 127 when the command does not exist, writing only to stderr', async () => {
    const run = bridge(['--socket', '/nonexistent.sock', '--port', '0', '--', '/no/such/command']);
    const result = await run.exited;
    expect(result).toMatchObject({ code: 127, stdout: '' });
    expect(result.stderr).toContain('cannot run /no/such/command');
  });

  it('refuses a command line it does not understand with its usage', async () => {
    const result = await bridge(['--port', '80', 'sh']).exited;
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toContain('usage: sandbox-net-bridge');
  });
});
