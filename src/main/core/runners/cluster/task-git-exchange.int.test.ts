// The task's git exchange as a cluster agent meets it: the real git CLI cloning and pushing over HTTP
// to a real server on 127.0.0.1, and the desk bringing what was pushed into the task's worktree.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { commitFiles, createSandbox, git, isolateGitConfig, writeFiles, type Sandbox } from '../../git/git-test-fixture';
import { openTaskExchange, type TaskExchange } from './task-git-exchange';
import { pktLine } from './smart-http';

const BRANCH = 'desk/task-1';

let restoreConfig: () => void;
beforeAll(() => { restoreConfig = isolateGitConfig(); });
afterAll(() => restoreConfig());

interface Setup {
  sandbox: Sandbox;
  exchange: TaskExchange;
  server: Server;
  url: string;
  start: string;
  worktree: string;
}
let setup: Setup;

beforeEach(async () => {
  const sandbox = createSandbox({ files: { 'keep.txt': 'keep\n', 'change.txt': 'old\n', 'remove.txt': 'bye\n' } });
  const start = git(sandbox.repo, 'rev-parse', 'HEAD');
  // Another branch the cluster must never see.
  git(sandbox.repo, 'checkout', '--quiet', '-b', 'secret');
  commitFiles(sandbox.repo, { 'secret.txt': 'hidden\n' }, 'secret work');
  git(sandbox.repo, 'checkout', '--quiet', 'main');
  const worktree = join(sandbox.root, 'task-1');
  git(sandbox.repo, 'worktree', 'add', '--quiet', '-b', BRANCH, worktree, start);

  const exchange = await openTaskExchange({ dataDir: join(sandbox.root, 'data'), taskId: 'task-1', gitCommonDir: join(sandbox.repo, '.git'), branch: BRANCH, startCommit: start });
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    if (!path.startsWith('/git/')) {
      response.writeHead(404).end();
      return;
    }
    void exchange.serve(request, response, path.slice('/git/'.length));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/git`;
  setup = { sandbox, exchange, server, url, start, worktree };
});

afterEach(async () => {
  await new Promise<void>((resolve) => setup.server.close(() => resolve()));
  await setup.exchange.close();
  setup.sandbox.cleanup();
});

/** Runs the git CLI without blocking the event loop (the server answering it lives in this process). */
function gitAsync(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', ['-c', 'user.name=Agent', '-c', 'user.email=agent@example.test', ...args], { cwd, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

async function cloneTask(): Promise<string> {
  const clone = mkdtempSync(join(setup.sandbox.root, 'clone-'));
  const result = await gitAsync(setup.sandbox.root, 'clone', '--quiet', setup.url, clone);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return clone;
}

async function push(clone: string, ...refspecs: string[]) {
  return gitAsync(clone, 'push', '--porcelain', 'origin', ...refspecs);
}

describe('the task git exchange', () => {
  it('lets a clone see only the task branch, at the start commit', async () => {
    const clone = await cloneTask();

    expect(git(clone, 'rev-parse', 'HEAD')).toBe(setup.start);
    expect(git(clone, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe(BRANCH);
    const listed = (await gitAsync(clone, 'ls-remote', setup.url)).stdout.trim().split('\n').map((line) => line.split('\t')[1]);
    expect(listed.sort()).toEqual(['HEAD', `refs/heads/${BRANCH}`]);
    expect(git(clone, 'branch', '--all', '--format=%(refname)').split('\n').sort())
      .toEqual([`refs/heads/${BRANCH}`, 'refs/remotes/origin/HEAD', `refs/remotes/origin/${BRANCH}`]);
    expect(await setup.exchange.head()).toBe(setup.start);
  });

  it('accepts a fast-forward of the branch and brings its files into the worktree with HEAD unchanged', async () => {
    const clone = await cloneTask();
    rmSync(join(clone, 'remove.txt'));
    const pushed = commitFiles(clone, { 'change.txt': 'new\n', 'added/new.txt': 'hello\n' }, 'agent work');

    const result = await push(clone, `HEAD:refs/heads/${BRANCH}`);
    expect(result.code).toBe(0);
    expect(await setup.exchange.head()).toBe(pushed);

    await setup.exchange.bringInto(setup.worktree);

    const { worktree, start } = setup;
    expect(git(worktree, 'rev-parse', 'HEAD')).toBe(start);
    expect(existsSync(join(worktree, 'remove.txt'))).toBe(false);
    expect(readFileSync(join(worktree, 'added/new.txt'), 'utf8')).toBe('hello\n');
    expect(readFileSync(join(worktree, 'change.txt'), 'utf8')).toBe('new\n');
    expect(git(worktree, 'write-tree')).toBe(git(worktree, 'rev-parse', `${pushed}^{tree}`));
    // What the desk then commits is exactly the pushed tree.
    git(worktree, 'add', '--all');
    git(worktree, 'commit', '--quiet', '-m', 'desk commit');
    expect(git(worktree, 'rev-parse', 'HEAD^{tree}')).toBe(git(worktree, 'rev-parse', `${pushed}^{tree}`));
    expect(git(worktree, 'rev-parse', 'HEAD^')).toBe(start);
  });

  it('leaves the worktree alone when nothing was pushed', async () => {
    writeFiles(setup.worktree, { 'untouched.txt': 'local\n' });
    await setup.exchange.bringInto(setup.worktree);
    expect(readFileSync(join(setup.worktree, 'untouched.txt'), 'utf8')).toBe('local\n');
    expect(git(setup.worktree, 'status', '--porcelain')).toBe('?? untouched.txt');
  });

  it.each([
    ['another branch', 'refs/heads/main'],
    ['a tag', 'refs/tags/x'],
    ['a ref beside the branch', `refs/heads/${BRANCH}-x`],
  ])('refuses a push to %s and says why', async (_what, ref) => {
    const clone = await cloneTask();
    commitFiles(clone, { 'x.txt': 'x\n' });

    const result = await push(clone, `HEAD:${ref}`);

    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`remote: desk: refused ${ref}: only refs/heads/${BRANCH} may be pushed`);
    expect(await setup.exchange.head()).toBe(setup.start);
    expect((await gitAsync(clone, 'ls-remote', setup.url)).stdout).not.toContain(ref);
  });

  it('refuses to delete the task branch', async () => {
    const clone = await cloneTask();
    const result = await push(clone, `:refs/heads/${BRANCH}`);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('the task branch cannot be deleted');
    expect(await setup.exchange.head()).toBe(setup.start);
  });

  it('refuses a commit that does not descend from the start commit, and keeps none of its objects', async () => {
    const clone = await cloneTask();
    git(clone, 'checkout', '--quiet', '--orphan', 'elsewhere');
    const orphan = commitFiles(clone, { 'orphan.txt': 'no parents\n' }, 'orphan');

    const result = await push(clone, '--force', `HEAD:refs/heads/${BRANCH}`);

    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`${orphan} does not descend from the task's start commit ${setup.start}`);
    expect(await setup.exchange.head()).toBe(setup.start);
    expect((await gitAsync(setup.exchange.path, 'cat-file', '-e', orphan)).code).not.toBe(0);
  });

  it('refuses a merge that would bring in history the task branch does not hold (another branch\'s commit)', async () => {
    const clone = await cloneTask();
    // However the container learnt of it: here it fetches the other branch straight from the repository.
    git(clone, 'fetch', '--quiet', setup.sandbox.repo, 'secret');
    git(clone, 'merge', '--quiet', '--no-edit', 'FETCH_HEAD');
    const secret = git(setup.sandbox.repo, 'rev-parse', 'secret');

    const result = await push(clone, `HEAD:refs/heads/${BRANCH}`);

    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`${secret} is history the task branch does not hold`);
    expect(await setup.exchange.head()).toBe(setup.start);
  });

  it('refuses a force-push that rewrites the branch after an accepted push', async () => {
    const clone = await cloneTask();
    const first = commitFiles(clone, { 'one.txt': '1\n' }, 'first');
    expect((await push(clone, `HEAD:refs/heads/${BRANCH}`)).code).toBe(0);
    git(clone, 'reset', '--quiet', '--hard', setup.start);
    commitFiles(clone, { 'two.txt': '2\n' }, 'rewritten');

    const result = await push(clone, '--force', `HEAD:refs/heads/${BRANCH}`);

    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`not a fast-forward of ${first}`);
    expect(await setup.exchange.head()).toBe(first);
  });

  it('accepts a large push, sent in chunks', async () => {
    const clone = await cloneTask();
    const big = randomBytes(2 * 1024 * 1024);
    writeFiles(clone, { 'big.bin': big.toString('base64') });
    const pushed = commitFiles(clone, {}, 'big file');

    const result = await gitAsync(clone, '-c', 'http.postBuffer=65536', 'push', '--porcelain', 'origin', `HEAD:refs/heads/${BRANCH}`);
    expect(result.code).toBe(0);
    expect(await setup.exchange.head()).toBe(pushed);

    await setup.exchange.bringInto(setup.worktree);
    expect(readFileSync(join(setup.worktree, 'big.bin'), 'utf8')).toBe(big.toString('base64'));
  });

  it('answers a gzip-compressed upload-pack request with a pack', async () => {
    const want = `${pktLine(`want ${setup.start}\n`)}0000${pktLine('done\n')}`;
    const response = await fetch(`${setup.url}/git-upload-pack`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-git-upload-pack-request', 'Content-Encoding': 'gzip' },
      body: gzipSync(want),
    });
    const body = Buffer.from(await response.arrayBuffer());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-git-upload-pack-result');
    expect(response.headers.get('cache-control')).toContain('no-cache');
    expect(body.subarray(0, 8).toString()).toBe('0008NAK\n');
    expect(body.subarray(8, 12).toString()).toBe('PACK');
  });

  it('refuses to hand out a commit the task branch does not reach', async () => {
    const secret = git(setup.sandbox.repo, 'rev-parse', 'secret');
    const want = `${pktLine(`want ${secret}\n`)}0000${pktLine('done\n')}`;
    const response = await fetch(`${setup.url}/git-upload-pack`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-git-upload-pack-request' },
      body: want,
    });
    // upload-pack answers "ERR not our ref" and fails, so the response is cut off rather than ended.
    const body = await response.arrayBuffer().then((bytes) => Buffer.from(bytes).toString('latin1'), () => 'cut off');
    expect(body).not.toContain('PACK');
  });

  it('answers the advertisement with the service line and no-cache headers, and 404/405 to anything else', async () => {
    const advertised = await fetch(`${setup.url}/info/refs?service=git-receive-pack`);
    expect(advertised.status).toBe(200);
    expect(advertised.headers.get('content-type')).toBe('application/x-git-receive-pack-advertisement');
    const text = await advertised.text();
    expect(text.startsWith('001f# service=git-receive-pack\n0000')).toBe(true);
    expect(text).toContain(`refs/heads/${BRANCH}`);
    expect(text).not.toContain('.have');

    expect((await fetch(`${setup.url}/info/refs`)).status).toBe(404);
    expect((await fetch(`${setup.url}/HEAD`)).status).toBe(404);
    expect((await fetch(`${setup.url}/objects/info/alternates`)).status).toBe(404);
    expect((await fetch(`${setup.url}/git-upload-pack`)).status).toBe(405);
    expect((await fetch(`${setup.url}/info/refs?service=git-upload-pack`, { method: 'POST', body: '' })).status).toBe(405);
  });

  it('removes the bare repository when closed', async () => {
    expect(existsSync(join(setup.exchange.path, 'HEAD'))).toBe(true);
    await setup.exchange.close();
    expect(existsSync(setup.exchange.path)).toBe(false);
  });
});
