// The in-sandbox forwarder on its own (unconfined here): each connection on its unix socket reaches 127.0.0.1:<port>,
// it runs the command and exits as it did, and a malformed command line is refused before anything listens.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { forwarderLauncher } from './forwarder-launcher';
import { freeLoopbackPort } from './host-forward';

const ENTRY = resolve(import.meta.dirname, 'dev-server-forwarder.ts');
const dirs: string[] = [];
afterEach(() => { for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true }); });

const SERVER = "require('node:http').createServer((q, s) => s.end('through the socket')).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('up'))";

function askOverSocket(socketPath: string): Promise<string> {
  return new Promise((resolveAnswer, reject) => {
    const socket = connect(socketPath, () => socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    let text = '';
    socket.on('data', (chunk: Buffer) => { text += chunk.toString('utf8'); });
    socket.on('end', () => resolveAnswer(text));
    socket.on('error', reject);
  });
}

describe('the dev-server forwarder', () => {
  it('carries a connection on its socket to the command\'s port on 127.0.0.1, and removes the socket when the command ends', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fwd-'));
    dirs.push(dir);
    const socketPath = join(dir, 'dev.sock');
    const port = await freeLoopbackPort(new Set());
    const child = spawn(process.execPath, [...forwarderLauncher(ENTRY), '--socket', socketPath, '--port', String(port), '--', process.execPath, '-e', SERVER], {
      env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((ready) => child.stdout.on('data', (chunk: Buffer) => { if (chunk.toString().includes('up')) ready(); }));
    expect(await askOverSocket(socketPath)).toContain('through the socket');
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    child.kill('SIGTERM');
    expect(await exited).not.toBe(0);
    expect(existsSync(socketPath)).toBe(false);
  });

  it('refuses a command line without a socket, a port or a command', () => {
    for (const args of [['--port', '8080', '--', 'true'], ['--socket', '/tmp/x.sock', '--', 'true'], ['--socket', '/tmp/x.sock', '--port', '0', '--', 'true'], ['--socket', '/tmp/x.sock', '--port', '80']]) {
      const result = spawnSync(process.execPath, [...forwarderLauncher(ENTRY), ...args], { encoding: 'utf8' });
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('usage: dev-server-forwarder');
    }
  });
});
