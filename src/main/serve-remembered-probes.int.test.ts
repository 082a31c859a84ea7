// The headless host's starts from remembered trial answers (core/host/remembered-probe.ts), seen from outside: a real
// bubblewrap behind a wrapper on PATH that notes every run. A second start answers without bubblewrap's trial run; the
// trial still runs before the first task's agent; and when the machine stopped allowing a sandbox since the answer
// was kept, no task runs on the remembered answer: the first one already runs as the live answer says, and says so.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isolateGitConfig, makeRepo, rawRequest, sandboxForTests } from './core/testing';
import { hostProcesses, until, type Host } from './test-support/host-processes';

const sandbox = await sandboxForTests();

const SERVE = resolve(import.meta.dirname, 'serve.ts');
const TOKEN = 'remembered-probes-token-0123456789';
let root: string;
let restoreGit: () => void;
const { startHost, killAll } = hostProcesses(['--import', 'tsx', SERVE]);

beforeAll(() => { restoreGit = isolateGitConfig(); });
afterAll(() => restoreGit());
afterEach(() => {
  killAll();
  if (root) rmSync(root, { recursive: true, force: true });
});

const call = (host: Host, method: string, path: string, body?: unknown) => rawRequest(host.url, method, path,
  { authorization: `Bearer ${TOKEN}`, ...(body !== undefined && { 'content-type': 'application/json' }) }, body === undefined ? undefined : JSON.stringify(body));

async function stop(child: ChildProcessWithoutNullStreams): Promise<void> {
  const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
  child.kill('SIGTERM');
  await exited;
}

/** Runs a task to its end; its activity as text. */
async function runTask(host: Host, id: string): Promise<string> {
  expect((await call(host, 'POST', '/', { id, prompt: `write ${id}.txt remembered` })).status).toBe(202);
  await until(async () => (['completed', 'error'].includes((await call(host, 'GET', `/tasks/${id}`)).json.status as string) ? true : undefined), `${id} to end`);
  return JSON.stringify((await call(host, 'GET', `/api/tasks/${id}/events?limit=200`)).json);
}

describe.skipIf(sandbox.skip)('starts from remembered trial answers', () => {
  it('answers without the trial run, runs it before the first task, and never runs a task on a stale answer', async () => {
    root = mkdtempSync(join(tmpdir(), 'desk-remembered-'));
    const repo = makeRepo(root);
    const bin = join(root, 'bin');
    mkdirSync(bin);
    const runs = join(root, 'bwrap-runs');
    const refuse = join(root, 'refuse');
    // Every bubblewrap run the desk makes goes through here; with `refuse` present it fails as a kernel without user
    // namespaces makes it fail. The wrapper itself never changes, so the remembered answer's fingerprint still holds.
    writeFileSync(join(bin, 'bwrap'), [
      '#!/bin/sh',
      `echo "$*" >> '${runs}'`,
      `if [ -e '${refuse}' ]; then echo 'bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.' >&2; exit 1; fi`,
      `exec '${sandbox.status.path ?? 'bwrap'}' "$@"`,
    ].join('\n'), { mode: 0o755 });
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, XDG_CACHE_HOME: join(root, 'cache') };
    const args = ['--repo', repo, '--port', '0', '--data-dir', join(root, 'data'), '--token', TOKEN];
    const trialsRun = () => (existsSync(runs) ? readFileSync(runs, 'utf8').split('\n').filter((line) => line.endsWith('--version')).length : 0);
    const memoryFile = join(root, 'cache', 'assignment-desk', 'probes', 'sandbox.json');

    // First start: nothing remembered, so the trial runs before the desk answers; its answer is kept.
    const first = await startHost(args, env);
    expect(trialsRun()).toBe(1);
    expect(first.output()).toMatch(/Sandbox: agents run confined by bubblewrap/);
    expect(existsSync(memoryFile)).toBe(true);
    await stop(first.child);

    // Second start: listening and answering with no trial run; the first task's agent starts only after one.
    const second = await startHost(args, env);
    expect(trialsRun()).toBe(1);
    expect(second.output()).toMatch(/Sandbox: agents run confined by bubblewrap/);
    expect((await call(second, 'GET', '/')).status).toBe(200);
    const confined = await runTask(second, 'after-recall');
    expect(confined).toContain('Sandboxed (bubblewrap');
    const lines = readFileSync(runs, 'utf8').split('\n').filter(Boolean);
    const trials = lines.flatMap((line, index) => (line.endsWith('--version') ? [index] : []));
    expect(trials).toHaveLength(2);
    expect(trials[1]).toBeLessThan(lines.findIndex((line) => !line.endsWith('--version')));
    await stop(second.child);

    // The machine stops allowing namespaces after the answer was kept: the start still says what it remembers...
    writeFileSync(refuse, '');
    const third = await startHost(args, env);
    expect(third.output()).toMatch(/Sandbox: agents run confined by bubblewrap/);
    // ...but the first task runs as the live answer says, unconfined and saying why, never as "Sandboxed".
    const unconfined = await runTask(third, 'after-refusal');
    expect(unconfined).not.toContain('Sandboxed (');
    expect(unconfined).toContain('Unsandboxed: bubblewrap cannot create a sandbox here');
    const settings = (await call(third, 'GET', '/api/settings')).json as { sandbox: { available: boolean; reason?: string } };
    expect(settings.sandbox.available).toBe(false);
    expect(settings.sandbox.reason).toMatch(/No permissions/);
    await until(async () => (/Sandbox changed since the desk last started: agents run unsandboxed/.test(third.output()) ? true : undefined), 'the change to be said');
    // And the next start asks live again: a refusal is never remembered.
    expect(existsSync(memoryFile)).toBe(false);
  });
});
