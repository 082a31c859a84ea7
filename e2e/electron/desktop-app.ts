// Starts the built desktop app with Playwright's _electron in a temp data dir, on a temp repository and a
// free port, and talks to its endpoint. Used only where the Electron binary exists (see electron-binary.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { makeRepo } from '../../src/main/core/test-support/desk-harness';
import { findElectronBinary } from './electron-binary';

export const PROJECT_ROOT = resolve(import.meta.dirname, '..', '..');

export interface DesktopApp {
  app: ElectronApplication;
  page: Page;
  origin: string;
  token: string;
  /** JSON request to the desk's endpoint with its token. */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- each route answers its own shape
  /** Quits the app (as the person would) and removes its temp dirs. */
  quit(): Promise<void>;
}

/** The bundles and SQLite built for Electron, as `npm start` makes them; fails with the build's own words. */
export function buildDesktopApp(): void {
  const run = (args: string[]) => {
    const result = spawnSync(process.execPath, args, { cwd: PROJECT_ROOT, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  };
  run([join(PROJECT_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'build/rebuild-native.ts']);
  if (!existsSync(join(PROJECT_ROOT, 'out', 'main', 'index.js'))) run([join(PROJECT_ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build']);
}

export async function launchDesktopApp(): Promise<DesktopApp> {
  const binary = findElectronBinary(PROJECT_ROOT);
  if (!binary.found) throw new Error(binary.reason);
  const root = mkdtempSync(join(tmpdir(), 'desk-electron-'));
  const dataDir = join(root, 'data');
  mkdirSync(dataDir);
  const repo = makeRepo(root);
  const port = await freePort();
  writeFileSync(join(dataDir, 'desktop.json'), JSON.stringify({ port }));
  // The project folder, as `electron .` runs it: package.json names the app, its data dir and out/main/index.js.
  const app = await _electron.launch({
    executablePath: binary.path,
    args: [PROJECT_ROOT],
    cwd: PROJECT_ROOT,
    env: { ...stringEnv(process.env), ASSIGNMENT_DESK_DATA_DIR: dataDir, ASSIGNMENT_DESK_REPO: repo, ASSIGNMENT_DESK_NO_LOGIN_PATH: '1' },
    timeout: 60_000,
  });
  const page = await app.firstWindow();
  const origin = `http://127.0.0.1:${port}`;
  const token = readFileSync(join(dataDir, 'token'), 'utf8').trim();
  return {
    app, page, origin, token,
    async api(method, path, body) {
      const response = await fetch(`${origin}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, json: text ? JSON.parse(text) : undefined };
    },
    async quit() {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Every process below `pid`, with its command line (POSIX `ps`). */
export function descendants(pid: number): { pid: number; command: string }[] {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' }).split('\n').map((line) => line.trim().split(/\s+/))
    .filter((words) => words.length >= 3).map(([child, parent, ...args]) => ({ pid: Number(child), ppid: Number(parent), command: args.join(' ') }));
  const found: { pid: number; command: string }[] = [];
  const walk = (parent: number) => {
    for (const entry of table.filter((row) => row.ppid === parent)) {
      found.push({ pid: entry.pid, command: entry.command });
      walk(entry.pid);
    }
  };
  walk(pid);
  return found;
}

function freePort(): Promise<number> {
  const server = createServer();
  return new Promise((resolvePort) => server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    server.close(() => resolvePort(port));
  }));
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
