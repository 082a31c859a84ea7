// A task's dev server from the built headless host (out/main/serve.js): the bundled port forwarder is found beside the
// bundle, and a desk killed outright (no shutdown) takes its sandboxed dev server with it.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isolateGitConfig, makeRepo, processesWith, rawRequest, sandboxForTests } from './core/testing';
import { hostProcesses, until } from './test-support/host-processes';

const ENTRY = resolve(import.meta.dirname, '../../out/main/serve.js');
const built = existsSync(ENTRY) && existsSync(resolve(import.meta.dirname, '../../out/main/dev-server-forwarder.js'));
const { status: sandbox } = await sandboxForTests();
const TOKEN = 'built-dev-server-token-0123456789';
const SERVER = "require('node:http').createServer((q, s) => s.end('built preview')).listen(Number(process.env.PORT), '127.0.0.1')";

let root: string;
let restoreGit: () => void;
const { startHost, killAll } = hostProcesses([ENTRY]);
beforeAll(() => { restoreGit = isolateGitConfig(); });
afterAll(() => restoreGit());
afterEach(() => {
  killAll();
  if (root) rmSync(root, { recursive: true, force: true });
});

function get(url: string): Promise<string> {
  return new Promise((resolveBody, reject) => {
    httpRequest(url, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => { body += chunk.toString('utf8'); });
      response.on('end', () => resolveBody(body));
    }).on('error', reject).end();
  });
}

describe.skipIf(!built || !sandbox.available)(`a dev server of the built desk (${!built ? 'not built: run electron-vite build' : sandbox.available ? 'sandboxed' : `skipped: ${sandbox.reason}`})`, () => {
  it('runs through the bundled forwarder and ends with a desk that is killed', async () => {
    root = mkdtempSync(join(tmpdir(), 'desk-built-dev-'));
    const marker = `built-dev-${process.pid}-${Date.now()}`;
    const repo = makeRepo(root, {
      'README.md': '# Fixture\n',
      'dev.cjs': SERVER,
      '.desk/config.json': JSON.stringify({ devServer: { command: `"${process.execPath}" dev.cjs ${marker}`, portEnv: 'PORT' } }),
    });
    const host = await startHost(['--repo', repo, '--port', '0', '--data-dir', join(root, 'data'), '--token', TOKEN]);
    const call = (method: string, path: string, body?: unknown) => rawRequest(host.url, method, path,
      { authorization: `Bearer ${TOKEN}`, ...(body !== undefined && { 'content-type': 'application/json' }) }, body === undefined ? undefined : JSON.stringify(body));
    await call('POST', '/', { id: 'built-dev', prompt: 'write a.txt a' });
    await until(async () => ((await call('GET', '/tasks/built-dev')).json.status === 'completed' ? true : undefined), 'the task to complete', 60_000);
    expect((await call('POST', '/api/tasks/built-dev/dev-server')).status).toBe(201);
    const url = await until(async () => (await call('GET', '/api/tasks/built-dev/dev-server')).json.devServer?.url as string | undefined, 'the dev server to answer');
    expect(await get(url)).toBe('built preview');
    expect(processesWith(marker).length).toBeGreaterThan(0);

    const child: ChildProcessWithoutNullStreams = host.child;
    const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
    child.kill('SIGKILL');
    await exited;
    await until(async () => (processesWith(marker).length === 0 ? true : undefined), 'the sandboxed dev server to end with the desk');
  }, 120_000);
});
