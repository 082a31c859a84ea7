// A dev server of a task whose worktree is a copy-on-write layer (issue 41): started in the task's namespace, it sees
// the task's files (the snapshot's and what the agent wrote in its layer), answers from the host, and stops cleanly,
// leaving the layer to be retired as usual.
import { existsSync, readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DevServerState } from '../../../shared/dev-server';
import { processesWith } from '../sandbox/test-support/sandbox-for-tests';
import { desksPerTest, startDesk, taskEvents, type Desk } from '../test-support/desk-harness';

const openDesk = desksPerTest();
const sandboxed = existsSync('/usr/bin/bwrap') || process.env.DESK_REQUIRE_SANDBOX === '1';

/** Serves the worktree's files as it sees them, and says where it runs. */
const SERVER_SCRIPT = `
const http = require('node:http');
const fs = require('node:fs');
http.createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://dev').pathname.slice(1));
  if (path === '') { res.end('cwd ' + process.cwd()); return; }
  try { res.end(fs.readFileSync(path, 'utf8')); } catch (error) { res.statusCode = 404; res.end(error.code); }
}).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening ' + process.argv[2]));
`;

function filesFor(marker: string): Record<string, string> {
  return {
    'README.md': '# Fixture\n',
    'scripts/serve.cjs': SERVER_SCRIPT,
    '.desk/config.json': JSON.stringify({ devServer: { command: `"${process.execPath}" scripts/serve.cjs ${marker}`, portEnv: 'PORT' } }),
  };
}

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => { body += chunk.toString('utf8'); });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    }).on('error', reject).end();
  });
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

async function stateUntil(desk: Desk, id: string, done: (state: DevServerState | null) => boolean): Promise<DevServerState | null> {
  const started = Date.now();
  for (;;) {
    const state = (await desk.api('GET', `/api/tasks/${id}/dev-server`)).json.devServer as DevServerState | null;
    if (done(state)) return state;
    if (Date.now() - started > 20_000) throw new Error(`The dev server of ${id} stayed ${JSON.stringify(state)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!sandboxed)('the dev server of a task whose worktree is a layer', () => {
  it('serves the files the agent wrote in its layer and the snapshot\'s, and stops cleanly', async () => {
    const marker = `devserver-layer-${process.pid}-${Date.now()}`;
    const desk = await openDesk({ layers: 'always', files: filesFor(marker) });
    await desk.api('POST', '/', { id: 'layered', prompt: 'write page.txt made in the layer' });
    expect(await desk.waitForStatus('layered', ['completed', 'error'])).toBe('completed');
    const events = await taskEvents(desk, 'layered');
    expect(events.some((e) => e.type === 'log' && e.text.includes('copy-on-write layer'))).toBe(true);
    const worktree = (await desk.api('GET', '/tasks/layered')).json.worktreePath as string;
    // On disk the worktree's folder holds only its link: the server can only have its files from the layer.
    expect(readdirSync(worktree)).toEqual(['.git']);

    expect((await desk.api('POST', '/api/tasks/layered/dev-server')).status).toBe(201);
    const { url, port } = await stateUntil(desk, 'layered', (s) => s?.state === 'running' || s?.state === 'exited') as DevServerState;
    expect(url).toBeDefined();
    expect(await get(`${url}page.txt`)).toEqual({ status: 200, body: 'made in the layer\n' });
    expect((await get(`${url}README.md`)).body).toBe('# Fixture\n');
    expect((await get(url as string)).body).toBe(`cwd ${worktree}`);

    const stopped = await desk.api('DELETE', '/api/tasks/layered/dev-server');
    expect(stopped.json.devServer).toMatchObject({ state: 'exited', port });
    expect(processesWith(marker)).toEqual([]);
    expect(await portIsFree(port as number)).toBe(true);
    // The layer is retired as usual afterwards: nothing of the server holds it.
    expect((await desk.api('POST', '/tasks/layered/reject')).status).toBe(200);
    expect(readdirSync(join(desk.dataDir, 'task-layers')).filter((name) => !name.startsWith('.'))).toEqual([]);
  });

  it('stops with the task when it is rejected while serving, and the layer is removed', async () => {
    const marker = `devserver-layer-reject-${process.pid}-${Date.now()}`;
    const desk = await openDesk({ layers: 'always', files: filesFor(marker) });
    await desk.api('POST', '/', { id: 'dropped', prompt: 'write page.txt soon gone' });
    expect(await desk.waitForStatus('dropped', ['completed', 'error'])).toBe('completed');
    await desk.api('POST', '/api/tasks/dropped/dev-server');
    const { url, port } = await stateUntil(desk, 'dropped', (s) => s?.state === 'running' || s?.state === 'exited') as DevServerState;
    expect((await get(`${url}page.txt`)).body).toBe('soon gone\n');

    expect((await desk.api('POST', '/tasks/dropped/reject')).status).toBe(200);
    await stateUntil(desk, 'dropped', (s) => s?.state === 'exited');
    expect(processesWith(marker)).toEqual([]);
    expect(await portIsFree(port as number)).toBe(true);
    expect(readdirSync(join(desk.dataDir, 'task-layers')).filter((name) => !name.startsWith('.'))).toEqual([]);
  });

  it('serves the layer after the desk restarted, before any turn mounted it again', async () => {
    const marker = `devserver-layer-restart-${process.pid}-${Date.now()}`;
    const first = await startDesk({ layers: 'always', files: filesFor(marker) });
    await first.api('POST', '/', { id: 'later', prompt: 'write page.txt from before the restart' });
    expect(await first.waitForStatus('later', ['completed', 'error'])).toBe('completed');
    await first.close();

    const desk = await openDesk({ reuse: { root: first.root, repo: first.repo, dataDir: first.dataDir }, layers: 'always' });
    expect((await desk.api('POST', '/api/tasks/later/dev-server')).status).toBe(201);
    const { url, port } = await stateUntil(desk, 'later', (s) => s?.state === 'running' || s?.state === 'exited') as DevServerState;
    expect(await get(`${url}page.txt`)).toEqual({ status: 200, body: 'from before the restart\n' });
    await desk.close();
    expect(processesWith(marker)).toEqual([]);
    expect(await portIsFree(port as number)).toBe(true);
  });

  it('is refused, saying why and what to do, once the policy would run it unsandboxed', async () => {
    const marker = `devserver-layer-off-${process.pid}-${Date.now()}`;
    const first = await startDesk({ layers: 'always', files: filesFor(marker) });
    await first.api('POST', '/', { id: 'boxed', prompt: 'write page.txt boxed' });
    expect(await first.waitForStatus('boxed', ['completed', 'error'])).toBe('completed');
    await first.close();

    const desk = await openDesk({ reuse: { root: first.root, repo: first.repo, dataDir: first.dataDir }, layers: 'always', policy: { version: 1, defaults: { sandbox: 'off' } } });
    const answer = await desk.api('POST', '/api/tasks/boxed/dev-server');
    expect(answer.status).toBe(503);
    expect(answer.json).toMatchObject({ code: 'sandbox_unavailable', message: expect.stringMatching(/copy-on-write layer, which only a sandboxed run can enter/) });
    expect(processesWith(marker)).toEqual([]);
  });
});
