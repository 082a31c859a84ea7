// The headless host as a person runs it: flags, refusals with exit code 2, token file, clean stop, and recovery after kill -9.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  describeProcess, git, isolateGitConfig, makeRepo, policyAllowing, processesWith, processGroupAlive, rawRequest, sandboxForTests, writePolicy, type RawResponse,
} from './core/testing';
import { hostProcesses, until, type Host } from './test-support/host-processes';

const sandbox = await sandboxForTests();

const SERVE = resolve(import.meta.dirname, 'serve.ts');
let root: string;
let restoreGit: () => void;
const { spawnHost: serve, startHost, killAll } = hostProcesses(['--import', 'tsx', SERVE]);

beforeAll(() => { restoreGit = isolateGitConfig(); });
afterAll(() => restoreGit());
afterEach(() => {
  killAll();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Runs the host expecting it to refuse: resolves with its exit code and what it printed. */
function refusal(args: string[]): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = serve(args);
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  return new Promise((resolveExit) => child.once('exit', (code) => resolveExit({ code, stderr, stdout })));
}

const exited = (child: ChildProcessWithoutNullStreams) =>
  new Promise<number | null>((resolveExit) => (child.exitCode !== null ? resolveExit(child.exitCode) : child.once('exit', resolveExit)));

function call(host: Host, token: string, method: string, path: string, body?: unknown): Promise<RawResponse> {
  const headers = { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) };
  return rawRequest(host.url, method, path, headers, body === undefined ? undefined : JSON.stringify(body));
}

describe('npm run serve', () => {
  it('refuses bad flags, a folder that is not a git repository and a busy port with one line and exit code 2', async () => {
    root = mkdtempSync(join(tmpdir(), 'desk-serve-'));
    const repo = makeRepo(root);
    const notRepo = join(root, 'plain');
    mkdirSync(notRepo);
    const busy = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => busy.once('listening', r));
    const busyPort = (busy.address() as { port: number }).port;
    try {
      const cases = [
        [['--repo', repo, '--frobnicate'], /Unknown option '--frobnicate'/],
        [['--repo', repo, '--port', 'many'], /--port must be a whole number/],
        [['--repo', notRepo, '--data-dir', join(root, 'd1')], /not a git repository/i],
        [['--repo', repo, '--data-dir', join(root, 'd2'), '--port', String(busyPort)], new RegExp(`port ${busyPort} on 127.0.0.1 is already in use`)],
      ] as const;
      for (const [args, message] of cases) {
        const result = await refusal([...args]);
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
        expect(result.stderr).toMatch(message);
        expect(result.stdout).not.toMatch(/Listening/);
      }
    } finally {
      busy.close();
    }
  });

  it('opens every --repo: the first at / and each under /r/<folder name>/, committing in its own repository', async () => {
    root = mkdtempSync(join(tmpdir(), 'desk-serve-'));
    const first = makeRepo(root);
    const second = join(root, 'second');
    git(root, 'init', '--quiet', '--initial-branch=main', second);
    git(second, 'commit', '--quiet', '--allow-empty', '-m', 'Initial commit');
    const token = 'serve-test-token-0123456789';
    const host = await startHost(['--repo', first, '--repo', second, '--port', '0', '--data-dir', join(root, 'data'), '--token', token]);
    expect(host.output()).toMatch(/Repository second: .* at http:\/\/\S+\/r\/second\//);
    expect((await call(host, token, 'POST', '/r/second/', { id: 's', prompt: 'write s.txt second' })).status).toBe(202);
    expect((await call(host, token, 'POST', '/', { id: 'f', prompt: 'write f.txt first' })).status).toBe(202);
    const commitOf = (id: string) => until(async () => (await call(host, token, 'GET', `/tasks/${id}`)).json.commit as string | undefined, `${id} to commit`);
    expect(git(second, 'show', `${await commitOf('s')}:s.txt`)).toBe('second');
    expect(git(first, 'show', `${await commitOf('f')}:f.txt`)).toBe('first');
    expect((await call(host, token, 'GET', '/r/second/')).json.tasks.map((t: { id: string }) => t.id)).toEqual(['s']);
    expect((await call(host, token, 'GET', '/')).json.tasks.map((t: { id: string }) => t.id)).toEqual(['f']);
  });

  it('keeps a generated token in the data dir for the user only, and stops cleanly on SIGTERM', async () => {
    root = mkdtempSync(join(tmpdir(), 'desk-serve-'));
    const repo = makeRepo(root);
    const dataDir = join(root, 'data');
    // The slow task's command must run, not wait for a person, for the stop to have something to end.
    writePolicy(dataDir, policyAllowing('execute'));
    const host = await startHost(['--repo', repo, '--port', '0', '--data-dir', dataDir]);
    const tokenPath = join(dataDir, 'token');
    expect(host.output()).toContain(`Token kept in ${tokenPath}`);
    expect(statSync(tokenPath).mode & 0o777).toBe(0o600);
    const token = readFileSync(tokenPath, 'utf8').trim();

    expect((await call(host, 'wrong-token-wrong-token', 'GET', '/')).status).toBe(401);
    expect((await call(host, token, 'POST', '/', { id: 'slow', prompt: 'run sleep 300' })).status).toBe(202);
    const pid = await until(async () => (await call(host, token, 'GET', '/tasks/slow')).json.agentPid as number | undefined, 'the agent to start');

    host.child.kill('SIGTERM');
    expect(await exited(host.child)).toBe(0);
    expect(processGroupAlive(pid)).toBe(false);
  });

  it('after kill -9 and a restart, keeps every task, ends the orphaned agent and runs the interrupted task again', async () => {
    root = mkdtempSync(join(tmpdir(), 'desk-serve-'));
    const repo = makeRepo(root);
    const dataDir = join(root, 'data');
    const args = ['--repo', repo, '--port', '0', '--data-dir', dataDir, '--token', 'restart-token-0123456789'];
    const token = 'restart-token-0123456789';
    // The interrupted task's command runs (in both lives of the desk) instead of waiting for a person.
    writePolicy(dataDir, policyAllowing('execute'));
    const first = await startHost(args);

    await call(first, token, 'POST', '/', { id: 'done', prompt: 'Finish first\nwrite done.txt yes' });
    await until(async () => ((await call(first, token, 'GET', '/tasks/done')).json.status === 'completed' ? true : undefined), 'the first task');
    // The command leaves a process that double-forks into its own session and ignores TERM and HUP.
    const marker = `desk-survivor-${process.pid}-kill9`;
    await call(first, token, 'POST', '/', { id: 'interrupted', prompt: `run sh -c '(setsid sh -c "trap \\"\\" TERM HUP; while :; do sleep 1; done" ${marker} &); sleep 300'` });
    await call(first, token, 'POST', '/', { id: 'waiting', prompt: 'say after', dependencies: ['interrupted'] });
    const orphan = await until(async () => (await call(first, token, 'GET', '/tasks/interrupted')).json.agentPid as number | undefined, 'the agent to start');
    const before = (await call(first, token, 'GET', '/')).json.tasks;
    const survivors = await until(async () => { const found = processesWith(marker); return found.length > 0 ? found : undefined; }, 'the command to start');

    first.child.kill('SIGKILL');
    await exited(first.child);

    const second = await startHost(args);
    const after = (await call(second, token, 'GET', '/')).json.tasks;
    expect(after.map((t: { id: string }) => t.id)).toEqual(before.map((t: { id: string }) => t.id));
    expect(after.find((t: { id: string }) => t.id === 'done')).toMatchObject({ status: 'completed', commit: before[0].commit });
    expect(git(repo, 'show', `${before[0].commit}:done.txt`)).toBe('yes');
    expect(processGroupAlive(orphan)).toBe(false);
    // The sandbox dies with the desk, so nothing it started outlives it; without one, only the agent's own group is reaped.
    // The kernel ends them as the sandbox's PID namespace goes down: quick, yet not instant on a loaded machine. A sandbox
    // still setting up when the desk was killed is ended by the restarted desk instead (sandbox/leftover-sandboxes.ts).
    const outliving = () => survivors.filter((pid) => processesWith(marker).includes(pid));
    if (sandbox.status.available) {
      await until(async () => (outliving().length === 0 ? true : undefined), 'the sandboxed command to end', 10_000).catch(() => undefined);
      // Named with their state, parent and namespace, so a failure on a loaded machine says which process stayed and where.
      expect(outliving().map(describeProcess)).toEqual([]);
    }

    const rerun = await until(async () => {
      const task = (await call(second, token, 'GET', '/tasks/interrupted')).json;
      return task.status === 'in-progress' && task.agentPid ? task : undefined;
    }, 'the interrupted task to run again');
    expect(rerun.attempt).toBe(2);
    expect(rerun.agentPid).not.toBe(orphan);
    expect((await call(second, token, 'GET', '/tasks/waiting')).json.status).toBe('queued');

    second.child.kill('SIGINT');
    expect(await exited(second.child)).toBe(0);
    expect(processGroupAlive(rerun.agentPid)).toBe(false);
    // Two starts of the host through tsx, two agent runs and a process hunt: on a busy two-core machine that passes 30 s.
  }, 90_000);

  it('answers 202 only for what is stored: every answered task of a burst cut short by kill -9 is there after a restart', async () => {
    root = mkdtempSync(join(tmpdir(), 'desk-serve-'));
    const repo = makeRepo(root);
    const token = 'burst-token-0123456789ab';
    const args = ['--repo', repo, '--port', '0', '--data-dir', join(root, 'data'), '--token', token];
    const first = await startHost(args);
    const gone = exited(first.child);
    // Sixteen clients submitting at once (so submissions share commits); the desk is killed mid-burst.
    const answered: string[] = [];
    let next = 0;
    const client = async (): Promise<void> => {
      while (next < 1000 && !first.child.killed) {
        const id = `burst-${next++}`;
        const answer = await call(first, token, 'POST', '/', { id, prompt: 'say waiting', dependencies: ['never-sent'] }).catch(() => undefined);
        if (answer?.status === 202) answered.push(id);
        if (answered.length === 100) first.child.kill('SIGKILL');
      }
    };
    await Promise.all(Array.from({ length: 16 }, client));
    await gone;
    expect(answered.length).toBeGreaterThanOrEqual(100);

    const second = await startHost(args);
    const listed = new Set(((await call(second, token, 'GET', '/')).json.tasks as { id: string }[]).map((task) => task.id));
    expect(answered.filter((id) => !listed.has(id))).toEqual([]);
    second.child.kill('SIGINT');
    expect(await exited(second.child)).toBe(0);
  }, 90_000);
});
