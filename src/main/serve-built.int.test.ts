// The built headless host as `npm run serve` runs it: out/main/serve.js loading the one-file bundle beside it with
// V8's code cache. Other specs run serve.ts from source, so this is where the built bundle's paths (the board, the
// scripted agent, SQLite in node_modules) and its cache are checked: a task runs, the board loads, a second start
// uses the code the first one kept, and a broken cache or the switch that turns it off never stops the desk.
import { spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { git, isolateGitConfig, makeRepo, rawRequest } from './core/testing';
import { HOST_BUNDLE } from './host-bundle';
import { hostProcesses, until } from './test-support/host-processes';

const OUT = resolve(import.meta.dirname, '../../out/main');
const ENTRY = join(OUT, 'serve.js');
const built = existsSync(ENTRY) && existsSync(join(OUT, HOST_BUNDLE));
const TOKEN = 'built-serve-token-0123456789';

let root: string;
let restoreGit: () => void;
const { startHost, killAll } = hostProcesses([ENTRY]);

beforeAll(() => { restoreGit = isolateGitConfig(); });
afterAll(() => restoreGit());
afterEach(() => {
  killAll();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** The environment of a person's shell, with the desk's cache in the test's own folder. */
function envWithCacheIn(cacheHome: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: cacheHome };
  delete env.NODE_DISABLE_COMPILE_CACHE;
  return env;
}

/** The code kept, by its content's name (a settled bundle's code also has its stamp's name, a link to the same file). */
const cacheFilesIn = (cacheHome: string): string[] => {
  const dir = join(cacheHome, 'assignment-desk', 'code-cache');
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.v8') && !name.includes('-stamp-')).map((name) => join(dir, name)) : [];
};

async function stop(child: ChildProcessWithoutNullStreams): Promise<void> {
  const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
  child.kill('SIGTERM');
  await exited;
}

describe.skipIf(!built)(`the built headless host (${built ? 'out/main' : 'not built: run electron-vite build'})`, () => {
  it('runs a task and serves the board from the bundle; its next start uses the code the first one kept', async () => {
    root = mkdtempSync(join(tmpdir(), 'desk-built-'));
    const repo = makeRepo(root);
    const cacheHome = join(root, 'cache');
    const env = envWithCacheIn(cacheHome);
    const args = ['--repo', repo, '--port', '0', '--data-dir', join(root, 'data'), '--token', TOKEN];
    const call = (url: string, method: string, path: string, body?: unknown) => rawRequest(url, method, path,
      { authorization: `Bearer ${TOKEN}`, ...(body !== undefined && { 'content-type': 'application/json' }) }, body === undefined ? undefined : JSON.stringify(body));

    const first = await startHost(args, env);
    expect((await call(first.url, 'POST', '/', { id: 'built', prompt: 'write built.txt from the bundle' })).status).toBe(202);
    const commit = await until(async () => (await call(first.url, 'GET', '/tasks/built')).json.commit as string | undefined, 'the task to commit');
    expect(git(repo, 'show', `${commit}:built.txt`)).toBe('from the bundle');
    const board = await rawRequest(first.url, 'GET', '/ui/', {});
    expect(board.status).toBe(200);
    expect(board.text).toContain('<div id="root"');
    const [cacheFile] = await until(async () => { const files = cacheFilesIn(cacheHome); return files.length > 0 ? files : undefined; }, 'the code cache');
    expect(cacheFilesIn(cacheHome)).toHaveLength(1);
    const kept = statSync(cacheFile as string);
    await stop(first.child);

    const second = await startHost(args, env);
    expect((await call(second.url, 'GET', '/tasks/built')).json).toMatchObject({ status: 'completed', commit });
    // Taken as it was: new code would have been written beside it and renamed over it.
    expect(cacheFilesIn(cacheHome)).toEqual([cacheFile]);
    expect(statSync(cacheFile as string)).toMatchObject({ ino: kept.ino, mtimeMs: kept.mtimeMs });
    await stop(second.child);
  });

  it('starts over a broken cache and replaces it; keeps none with NODE_DISABLE_COMPILE_CACHE=1, or for --help', async () => {
    root = mkdtempSync(join(tmpdir(), 'desk-built-'));
    const repo = makeRepo(root);
    const cacheHome = join(root, 'cache');
    const args = ['--repo', repo, '--port', '0', '--data-dir', join(root, 'data'), '--token', TOKEN];
    // Code is kept once the desk listens, with what its start compiled: a --help run keeps none.
    const help = spawnSync(process.execPath, [ENTRY, '--help'], { env: envWithCacheIn(cacheHome), encoding: 'utf8' });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('--repo');
    expect(cacheFilesIn(cacheHome)).toEqual([]);
    const start = async (env: NodeJS.ProcessEnv) => {
      const host = await startHost(args, env);
      expect((await rawRequest(host.url, 'GET', '/', { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
      await stop(host.child);
    };
    await start(envWithCacheIn(cacheHome));
    const [cacheFile] = cacheFilesIn(cacheHome) as [string];
    writeFileSync(cacheFile, Buffer.from('not code at all'));
    await start(envWithCacheIn(cacheHome));
    expect(readFileSync(cacheFile).length).toBeGreaterThan(100_000);
    const replaced = statSync(cacheFile);
    await start(envWithCacheIn(cacheHome));
    expect(statSync(cacheFile)).toMatchObject({ ino: replaced.ino, mtimeMs: replaced.mtimeMs });

    const off = join(root, 'off');
    await start({ ...envWithCacheIn(off), NODE_DISABLE_COMPILE_CACHE: '1' });
    // The switch is about code: the answers of the start's trial runs are kept beside it all the same.
    expect(existsSync(join(off, 'assignment-desk', 'code-cache'))).toBe(false);
  });
});
