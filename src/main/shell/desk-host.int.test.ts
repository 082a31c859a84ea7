// The core as the desktop app runs it, in plain Node: the remembered port and its fallback, switching
// repositories, and quitting without leaving agents behind. Real git, SQLite and scripted agent.
import { processExists } from '../core/index';
import { isolateGitConfig, makeRepo, scriptedAgent } from '../core/testing';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TaskStatus } from '../../shared/task';
import { createDeskHost, type DeskHost } from './desk-host';
import { createSettingsStore } from './desktop-settings';

let restoreGit: () => void;
let root: string;
let host: DeskHost | undefined;
const servers: Server[] = [];

beforeAll(() => { restoreGit = isolateGitConfig(); });
afterAll(() => restoreGit());
afterEach(async () => {
  await host?.close();
  host = undefined;
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  rmSync(root, { recursive: true, force: true });
});

function newHost(options: { port?: number } = {}): { host: DeskHost; repo: string; dataDir: string } {
  root = mkdtempSync(join(tmpdir(), 'desk-host-'));
  const repo = makeRepo(root);
  const dataDir = join(root, 'data');
  mkdirSync(dataDir);
  const settings = createSettingsStore(dataDir, () => undefined);
  if (options.port !== undefined) settings.update({ port: options.port });
  host = createDeskHost({
    dataDir, token: 'desk-host-token-0123456789', settings, appVersion: '0.0.0-test', serverName: 'Test desk',
    agents: () => ({ scripted: scriptedAgent(), builtins: [], custom: [], searchDirs: [], env: process.env }),
    log: () => undefined,
  });
  return { host, repo, dataDir };
}

function occupy(): Promise<number> {
  const server = createServer();
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const port = await occupy();
  await new Promise((resolve) => servers.pop()?.close(resolve));
  return port;
}

async function status(origin: string): Promise<number> {
  return (await fetch(`${origin}/`, { headers: { authorization: 'Bearer desk-host-token-0123456789' } })).status;
}

function waitFor(desk: DeskHost, id: string, wanted: TaskStatus): Promise<void> {
  return new Promise((resolve) => {
    const stop = desk.subscribe((event) => {
      if (event.event.type === 'task' && event.event.task.id === id && event.event.task.status === wanted) {
        stop();
        resolve();
      }
    });
  });
}

/** The scripted agents this test process started: its children running the agent's source. */
function scriptedAgentPids(): number[] {
  const lines = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' }).split('\n');
  return lines.map((line) => line.trim().split(/\s+/)).filter(([, ppid, ...args]) => Number(ppid) === process.pid && args.join(' ').includes('scripted-agent-main.ts'))
    .map(([pid]) => Number(pid));
}

describe('the desk inside the desktop app', () => {
  it('listens on 127.0.0.1 at the remembered port and remembers the repository', async () => {
    const port = await freePort();
    const { host: desk, repo, dataDir } = newHost({ port });
    const running = await desk.open(repo);
    expect(running.origin).toBe(`http://127.0.0.1:${port}`);
    expect(await status(running.origin)).toBe(200);
    expect(createSettingsStore(dataDir, () => undefined).read()).toMatchObject({ port, repoPath: running.repoRoot });
  });

  it('takes a free port when another program holds the remembered one, and remembers that instead', async () => {
    const taken = await occupy();
    const { host: desk, repo, dataDir } = newHost({ port: taken });
    const running = await desk.open(repo);
    expect(running.port).not.toBe(taken);
    expect(await status(running.origin)).toBe(200);
    expect(createSettingsStore(dataDir, () => undefined).read().port).toBe(running.port);
  });

  it('moves to another repository on the same port', async () => {
    const { host: desk, repo } = newHost({ port: await freePort() });
    const first = await desk.open(repo);
    mkdirSync(join(root, 'second'));
    const other = makeRepo(join(root, 'second'));
    const second = await desk.switchTo(other);
    expect(second.port).toBe(first.port);
    expect(second.repoRoot).not.toBe(first.repoRoot);
    expect(await status(second.origin)).toBe(200);
  });

  it('keeps working on the current repository when the new folder is not one', async () => {
    const { host: desk, repo } = newHost({ port: await freePort() });
    const first = await desk.open(repo);
    const notARepo = join(root, 'plain-folder');
    mkdirSync(notARepo);
    await expect(desk.switchTo(notARepo)).rejects.toThrow();
    expect(desk.current()?.repoRoot).toBe(first.repoRoot);
    expect(await status(first.origin)).toBe(200);
  });

  it.skipIf(process.platform === 'win32')('leaves no agent running after it closes', async () => {
    const { host: desk, repo } = newHost({ port: await freePort() });
    const running = await desk.open(repo);
    const started = waitFor(desk, 'long', 'in-progress');
    await running.core.tasks.submit({ id: 'long', prompt: 'sleep 60000', dependencies: [] });
    await started;
    // In progress comes before the worktree is ready and the agent starts; on a busy machine that takes a while.
    await expect.poll(scriptedAgentPids, { timeout: 15_000 }).not.toHaveLength(0);
    const pids = scriptedAgentPids();
    await desk.close();
    expect(pids.filter((pid) => processExists(pid))).toEqual([]);
  });
});
