// A task's dev server with a real desk: started through its route in the task's worktree (and sandbox, where this
// machine has one), reached from the host on its own port, shown as a terminal, and gone with the task.
import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DevServerState } from '../../../shared/dev-server';
import type { TaskEvent } from '../../../shared/events';
import { processesWith, sandboxForTests } from '../sandbox/test-support/sandbox-for-tests';
import { desksPerTest, taskEvents, waitForEvent, type Desk } from '../test-support/desk-harness';

const { status: sandboxStatus } = await sandboxForTests();
const openDesk = desksPerTest();

/** A tiny dev server: answers who it is, and tries a write where asked (for the confinement test). */
const SERVER_SCRIPT = `
const http = require('node:http');
const fs = require('node:fs');
const port = Number(process.env.PORT);
http.createServer((req, res) => {
  const url = new URL(req.url, 'http://dev');
  if (url.pathname === '/env') { res.end(JSON.stringify(process.env)); return; }
  if (url.pathname === '/write') {
    try { fs.writeFileSync(url.searchParams.get('path'), 'written by the dev server'); res.end('wrote'); }
    catch (error) { res.end('refused ' + error.code); }
    return;
  }
  res.end('hello from ' + process.argv[2] + ' in ' + process.cwd());
}).listen(port, '127.0.0.1', () => console.log('listening on ' + port));
`;

function deskFiles(marker: string, devServer: object | null = { command: `"${process.execPath}" scripts/serve.cjs ${marker}`, portEnv: 'PORT' }): Record<string, string> {
  return {
    'README.md': '# Fixture\n',
    'scripts/serve.cjs': SERVER_SCRIPT,
    '.desk/config.json': JSON.stringify(devServer ? { devServer } : {}),
  };
}

const markerOf = (name: string) => `devserver-${name}-${process.pid}-${Date.now()}`;

async function completedTask(desk: Desk, id: string): Promise<void> {
  expect((await desk.api('POST', '/', { id, prompt: `write ${id}.txt made by ${id}` })).status).toBe(202);
  await desk.waitForStatus(id, 'completed');
}

/** The dev server's state once `done` holds; the desk has no event for it, so its route is read until then. */
async function stateUntil(desk: Desk, id: string, done: (state: DevServerState | null) => boolean, limitMs = 20_000): Promise<DevServerState | null> {
  const started = Date.now();
  for (;;) {
    const state = (await desk.api('GET', `/api/tasks/${id}/dev-server`)).json.devServer as DevServerState | null;
    if (done(state)) return state;
    if (Date.now() - started > limitMs) throw new Error(`The dev server of ${id} stayed ${JSON.stringify(state)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const running = (desk: Desk, id: string) => stateUntil(desk, id, (s) => s?.state === 'running') as Promise<DevServerState>;
const exited = (desk: Desk, id: string) => stateUntil(desk, id, (s) => s?.state === 'exited') as Promise<DevServerState>;

function get(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    httpRequest(url, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => { body += chunk.toString('utf8'); });
      response.on('end', () => resolve(body));
    }).on('error', reject).end();
  });
}

/** Whether this process can listen on 127.0.0.1:<port> now, i.e. nothing holds it. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

const terminalText = (events: TaskEvent[], terminalId: string) => events.flatMap((e) => (e.type === 'terminal-output' && e.terminalId === terminalId ? [e.data] : [])).join('');

describe(`a task's dev server (${sandboxStatus.available ? 'in the bubblewrap sandbox' : `unsandboxed: ${sandboxStatus.reason}`})`, () => {
  it('answers from the host on the port the route gave it, once it is running, with the link to it', async () => {
    const marker = markerOf('link');
    const desk = await openDesk({ files: deskFiles(marker) });
    await completedTask(desk, 'try-me');
    const started = await desk.api('POST', '/api/tasks/try-me/dev-server');
    expect(started.status).toBe(201);
    expect(started.json).toMatchObject({ state: 'starting', terminalId: 'dev-server-1' });
    const state = await running(desk, 'try-me');
    expect(state.url).toBe(`http://127.0.0.1:${started.json.port}/`);
    const body = await get(state.url as string);
    expect(body).toContain(`hello from ${marker}`);
    // It runs in the task's worktree, not in the person's checkout.
    expect(body).not.toContain(` in ${desk.repo}`);
  });

  it('shows its output as a terminal of the task', async () => {
    const desk = await openDesk({ files: deskFiles(markerOf('terminal')) });
    await completedTask(desk, 'shown');
    const { port, terminalId } = (await desk.api('POST', '/api/tasks/shown/dev-server')).json;
    await waitForEvent(desk, 'shown', ({ event }) => event.type === 'terminal-output' && event.terminalId === terminalId && event.data.includes(`listening on ${port}`));
    const events = await taskEvents(desk, 'shown');
    expect(events).toContainEqual(expect.objectContaining({ type: 'terminal-started', terminalId }));
    expect(terminalText(events, terminalId)).toContain(`listening on ${port}`);
  });

  it('answers the running server when started twice', async () => {
    const desk = await openDesk({ files: deskFiles(markerOf('twice')) });
    await completedTask(desk, 'twice');
    const first = await desk.api('POST', '/api/tasks/twice/dev-server');
    const second = await desk.api('POST', '/api/tasks/twice/dev-server');
    expect(second.status).toBe(200);
    expect(second.json.port).toBe(first.json.port);
    const events = await taskEvents(desk, 'twice');
    expect(events.filter((e) => e.type === 'terminal-started' && e.terminalId.startsWith('dev-server'))).toHaveLength(1);
  });

  it('gives two tasks\' servers different ports, each answering for its own worktree', async () => {
    const desk = await openDesk({ files: deskFiles(markerOf('two')) });
    await completedTask(desk, 'one');
    await completedTask(desk, 'other');
    await desk.api('POST', '/api/tasks/one/dev-server');
    await desk.api('POST', '/api/tasks/other/dev-server');
    const [one, other] = await Promise.all([running(desk, 'one'), running(desk, 'other')]);
    expect(one.port).not.toBe(other.port);
    const [oneBody, otherBody] = await Promise.all([get(one.url as string), get(other.url as string)]);
    expect(oneBody).not.toBe(otherBody);
  });

  it('stops when the person stops it: no process left and the port free', async () => {
    const marker = markerOf('stop');
    const desk = await openDesk({ files: deskFiles(marker) });
    await completedTask(desk, 'stopped');
    const { port } = await running(desk, (await desk.api('POST', '/api/tasks/stopped/dev-server'), 'stopped'));
    const stopped = await desk.api('DELETE', '/api/tasks/stopped/dev-server');
    expect(stopped.json.devServer).toMatchObject({ state: 'exited', port });
    expect(processesWith(marker)).toEqual([]);
    expect(await portIsFree(port)).toBe(true);
  });

  it('stops with the task\'s cleanup when it is rejected', async () => {
    const marker = markerOf('reject');
    const desk = await openDesk({ files: deskFiles(marker) });
    await completedTask(desk, 'rejected');
    await desk.api('POST', '/api/tasks/rejected/dev-server');
    const { port } = await running(desk, 'rejected');
    expect((await desk.api('POST', '/tasks/rejected/reject')).status).toBe(200);
    await exited(desk, 'rejected');
    expect(processesWith(marker)).toEqual([]);
    expect(await portIsFree(port)).toBe(true);
  });

  it('stops when the task is cancelled', async () => {
    const marker = markerOf('cancel');
    const desk = await openDesk({ files: deskFiles(marker) });
    await desk.api('POST', '/', { id: 'busy', prompt: 'sleep 60000' });
    await waitForEvent(desk, 'busy', ({ event }) => event.type === 'log' && event.text.startsWith('Started '));
    await desk.api('POST', '/api/tasks/busy/dev-server');
    const { port } = await running(desk, 'busy');
    await desk.api('DELETE', '/busy');
    await exited(desk, 'busy');
    expect(processesWith(marker)).toEqual([]);
    expect(await portIsFree(port)).toBe(true);
  });

  it('stops when the task runs again, whose new run gets a fresh worktree', async () => {
    const marker = markerOf('rerun');
    const desk = await openDesk({ files: deskFiles(marker) });
    await completedTask(desk, 'again');
    await desk.api('POST', '/api/tasks/again/dev-server');
    const { port } = await running(desk, 'again');
    expect((await desk.api('POST', '/tasks/again/rerun')).status).toBeLessThan(300);
    await exited(desk, 'again');
    expect(processesWith(marker)).toEqual([]);
    expect(await portIsFree(port)).toBe(true);
  });

  it('stops when the desk closes', async () => {
    const marker = markerOf('close');
    const desk = await openDesk({ files: deskFiles(marker) });
    await completedTask(desk, 'closing');
    await desk.api('POST', '/api/tasks/closing/dev-server');
    const { port } = await running(desk, 'closing');
    await desk.close();
    expect(processesWith(marker)).toEqual([]);
    expect(await portIsFree(port)).toBe(true);
  });

  it('refuses with what to do when the repository names no dev server', async () => {
    const desk = await openDesk({ files: deskFiles(markerOf('none'), null) });
    await completedTask(desk, 'plain');
    const answer = await desk.api('POST', '/api/tasks/plain/dev-server');
    expect(answer.status).toBe(409);
    expect(answer.json).toMatchObject({ code: 'dev_server_not_configured' });
    expect(answer.json.message).toContain('.desk/config.json');
  });

  it('refuses a task that has no worktree yet, and a task that does not exist', async () => {
    const desk = await openDesk({ files: deskFiles(markerOf('early')) });
    await desk.api('POST', '/', { id: 'waiting', prompt: 'write w.txt w', dependencies: ['not-submitted-yet'] });
    const early = await desk.api('POST', '/api/tasks/waiting/dev-server');
    expect(early.status).toBe(409);
    expect(early.json).toMatchObject({ code: 'no_worktree' });
    expect((await desk.api('POST', '/api/tasks/nobody/dev-server')).status).toBe(404);
    expect((await desk.api('GET', '/api/tasks/nobody/dev-server')).status).toBe(404);
  });

  it('shows how it ended when its command fails, and a new start gets a terminal of its own', async () => {
    const desk = await openDesk({ files: deskFiles(markerOf('fails'), { command: 'echo "cannot find module vite" >&2; exit 3', portEnv: 'PORT' }) });
    await completedTask(desk, 'broken');
    const first = await desk.api('POST', '/api/tasks/broken/dev-server');
    const ended = await exited(desk, 'broken');
    expect(ended).toMatchObject({ state: 'exited', exitCode: 3 });
    expect(terminalText(await taskEvents(desk, 'broken'), first.json.terminalId)).toContain('cannot find module vite');
    const again = await desk.api('POST', '/api/tasks/broken/dev-server');
    expect(again.status).toBe(201);
    expect(again.json.terminalId).not.toBe(first.json.terminalId);
  });

  it('runs with the agent\'s environment, without the desk\'s secrets', async () => {
    const canary = `ghp_${markerOf('secret')}`;
    const saved = process.env.GH_TOKEN;
    process.env.GH_TOKEN = canary;
    try {
      const desk = await openDesk({ files: deskFiles(markerOf('env')) });
      await completedTask(desk, 'clean');
      await desk.api('POST', '/api/tasks/clean/dev-server');
      const { url, port } = await running(desk, 'clean');
      const env = JSON.parse(await get(`${url}env`)) as Record<string, string>;
      expect(env.PORT).toBe(String(port));
      expect(JSON.stringify(env)).not.toContain(canary);
    } finally {
      if (saved === undefined) delete process.env.GH_TOKEN;
      else process.env.GH_TOKEN = saved;
    }
  });

  it('refuses a start without the desk\'s token, and nothing runs', async () => {
    const marker = markerOf('token');
    const desk = await openDesk({ files: deskFiles(marker) });
    await completedTask(desk, 'guarded');
    const refused = await desk.api('POST', '/api/tasks/guarded/dev-server', undefined, { authorization: 'Bearer not-the-token' });
    expect(refused.status).toBe(401);
    expect((await desk.api('GET', '/api/tasks/guarded/dev-server')).json.devServer).toBeNull();
    expect(processesWith(marker)).toEqual([]);
  });

  it('uses the dev server set in Settings when the repository has no .desk/config.json', async () => {
    const marker = markerOf('settings');
    const desk = await openDesk({ files: { 'README.md': '# Fixture\n', 'scripts/serve.cjs': SERVER_SCRIPT } });
    const [repo] = (await desk.api('GET', '/api/repos')).json.repos;
    const saved = await desk.api('PUT', `/api/repos/${repo.name}/setup`, { devServer: { command: `"${process.execPath}" scripts/serve.cjs ${marker}`, portEnv: 'PORT' } });
    expect(saved.status).toBe(200);
    await completedTask(desk, 'configured');
    const started = await desk.api('POST', '/api/tasks/configured/dev-server');
    expect(started.json).toMatchObject({ state: 'starting' });
    const { url } = await running(desk, 'configured');
    expect(await get(url as string)).toContain(`hello from ${marker}`);
  });

  it('is not reachable at any address of the machine but 127.0.0.1', async () => {
    const outside = Object.values(networkInterfaces()).flat().find((address) => address && address.family === 'IPv4' && !address.internal);
    const desk = await openDesk({ files: deskFiles(markerOf('exposed')) });
    await completedTask(desk, 'private');
    await desk.api('POST', '/api/tasks/private/dev-server');
    const { port } = await running(desk, 'private');
    const refused = await get(`http://${outside?.address ?? '0.0.0.0'}:${port}/`).then(() => false, (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED');
    expect(refused).toBe(true);
  });
});

describe.skipIf(!sandboxStatus.available)('a dev server in the sandbox', () => {
  it('cannot write outside the task\'s worktree, as its agent cannot', async () => {
    const desk = await openDesk({ files: deskFiles(markerOf('confined')) });
    await completedTask(desk, 'boxed');
    await desk.api('POST', '/api/tasks/boxed/dev-server');
    const { url } = await running(desk, 'boxed');
    const intoCheckout = join(desk.repo, 'planted-by-dev-server.txt');
    // This test's checkout lies under /tmp, which in there is the task's own temp dir: the write lands there, if anywhere.
    await get(`${url}write?path=${encodeURIComponent(intoCheckout)}`);
    expect(existsSync(intoCheckout)).toBe(false);
    // The desk's data dir is an empty scratch space in there: a write lands nowhere the desk reads.
    const intoDataDir = join(desk.dataDir, 'planted.txt');
    await get(`${url}write?path=${encodeURIComponent(intoDataDir)}`);
    expect(existsSync(intoDataDir)).toBe(false);
    // Its own worktree stays writable, so a server that builds into it works.
    const worktree = (await get(url as string)).split(' in ').pop() as string;
    expect(await get(`${url}write?path=${encodeURIComponent(join(worktree, 'built.txt'))}`)).toBe('wrote');
    expect(readFileSync(join(worktree, 'built.txt'), 'utf8')).toBe('written by the dev server');
  });
});

describe('a dev server on a machine without a sandbox', () => {
  it('runs unconfined as the agent would, and says so', async () => {
    const desk = await openDesk({ files: deskFiles(markerOf('bare')), sandbox: { kind: 'none', available: false, reason: 'bubblewrap is not installed' } });
    await completedTask(desk, 'bare');
    const started = await desk.api('POST', '/api/tasks/bare/dev-server');
    expect(started.json.unsandboxed).toBe(true);
    const { url } = await running(desk, 'bare');
    expect(await get(url as string)).toContain('hello from');
  });
});
