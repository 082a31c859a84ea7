// Tasks on the cluster runner, on the one-node swarm docker-daemon.ts makes of the tests' daemon: the container shares
// no disk with the desk. It clones the task's start from the desk over git smart HTTP with its run's token, its agent's
// questions reach the desk and are answered there, its work comes back as a push of the task branch and is committed;
// the desk's git door refuses any other ref, a non-fast-forward, and every caller without that run's token.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Docker from 'dockerode';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CoreConfig } from '../../src/main/core/core-config';
import { loadDeskId } from '../../src/main/core/git/desk-id';
import { git } from '../../src/main/core/git/git-test-fixture';
import { DESK_LABEL } from '../../src/main/core/runners/docker/container-spec';
import { desksPerTest, policyAllowing, TEST_TOKEN, type Desk } from '../../src/main/core/test-support/desk-harness';
import { agentMounts } from './docker-test-config';

const host = inject('dockerHost');
const image = inject('dockerImage');
const skipReason = inject('dockerSkip') || inject('swarmSkip');
const PROJECT_ROOT = resolve(import.meta.dirname, '../..');

/** The helper and the scripted agent run from this checkout on this machine's Node; git is this machine's. */
const clusterRunners = (): CoreConfig['runners'] => ({
  default: 'local',
  cluster: {
    enabled: true, host, image, network: 'host', node: process.execPath,
    helper: join(PROJECT_ROOT, 'resources/desk-runner/desk-runner.mjs'),
    mounts: agentMounts(),
    limits: { cpus: 1, memoryMb: 1024, pids: 256 },
    connectSeconds: 90,
  },
});

const openDesk = desksPerTest();
let docker: Docker;
const scratch: string[] = [];
afterEach(() => { for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true }); });

async function servicesOf(desk: Pick<Desk, 'dataDir'>): Promise<Docker.Service[]> {
  return docker.listServices({ filters: { label: [`${DESK_LABEL}=${await loadDeskId(desk.dataDir)}`] } });
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, limitMs = 90_000): Promise<T> {
  const until = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((done) => { setTimeout(done, 200); });
  }
}

/**
 * git as a client of the desk's door, with a header of our choosing; its exit status and what it said. Never
 * synchronous: the desk answering it runs in this very process.
 */
async function gitClient(args: string[], header?: string): Promise<{ ok: boolean; output: string }> {
  const config = header === undefined ? [] : ['-c', `http.extraHeader=${header}`];
  return new Promise((resolveRun) => {
    execFile('git', [...config, ...args], { encoding: 'utf8', env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }, (error, stdout, stderr) => {
      resolveRun({ ok: error === null, output: `${stdout}${stderr}` });
    });
  });
}

if (!host || skipReason) describe.skip(`cluster runner (skipped: ${skipReason})`, () => { it('needs a swarm', () => {}); });
else describe('the cluster runner', () => {
  beforeAll(() => { docker = new Docker({ socketPath: new URL(host).pathname }); });

  it('runs a task as a swarm service with no shared disk: clone, a question answered on the desk, a command, a push committed', async () => {
    const desk = await openDesk({ runners: clusterRunners(), policy: policyAllowing('execute') });
    // A clone has a .git directory; the desk's linked worktree has a .git file: the command says where it ran.
    const prompt = 'ask May I write the result?\nwrite result.txt made in the swarm\nrun test -d .git && echo ran-in-a-clone\nsay done';
    expect((await desk.api('POST', '/', { id: 'swarmed', prompt, runner: 'cluster' })).status).toBe(202);

    // The question comes over the container's connection and waits for a person on the desk.
    await desk.waitForStatus('swarmed', ['awaiting-input', 'error'], 120_000);
    const waiting = (await desk.api('GET', '/tasks/swarmed')).json;
    expect(waiting, JSON.stringify(waiting)).toMatchObject({ status: 'awaiting-input', runner: 'cluster' });
    const [service] = await servicesOf(desk);
    expect(service?.Spec?.TaskTemplate).toBeDefined();
    // Nothing of this machine's disk but the tools: no worktree, no repository, no data dir.
    const mounts = ((service?.Spec?.TaskTemplate as { ContainerSpec?: { Mounts?: { Source?: string }[] } }).ContainerSpec?.Mounts ?? []).map((m) => m.Source);
    expect(mounts.filter((source) => source !== undefined && (source.startsWith(desk.root) || source.startsWith(desk.repo)))).toEqual([]);
    const [question] = waiting.openQuestions;
    expect((await desk.api('POST', '/tasks/swarmed/input', { questionId: question.id, optionId: 'allow' })).status).toBe(200);

    await desk.waitForStatus('swarmed', ['completed', 'error'], 120_000);
    const detail = (await desk.api('GET', '/tasks/swarmed')).json;
    expect(detail, JSON.stringify(detail)).toMatchObject({ status: 'completed', runner: 'cluster' });
    expect(git(desk.repo, 'show', `${detail.commit}:result.txt`)).toBe('made in the swarm');
    expect(git(desk.repo, 'log', '-1', '--format=%B', detail.commit)).toContain('Task-Id: swarmed');
    const events = (await desk.api('GET', '/api/tasks/swarmed/events')).json.events as { event: { type: string; text?: string; data?: string } }[];
    expect(events.some((e) => /Docker Swarm service/.test(e.event.text ?? ''))).toBe(true);
    expect(events.filter((e) => e.event.type === 'terminal-output').map((e) => e.event.data).join('')).toContain('ran-in-a-clone');
    await waitFor('the service to be removed', async () => ((await servicesOf(desk)).length === 0 ? true : undefined), 30_000);
  });

  it('opens its git door only to the run\'s token, and takes only the task branch as a fast-forward', async () => {
    const desk = await openDesk({ runners: clusterRunners() });
    // A long turn keeps the run (and its door) open while the test knocks.
    await desk.api('POST', '/', { id: 'door', prompt: 'sleep 60000', runner: 'cluster' });
    await desk.waitForStatus('door', 'in-progress', 120_000);
    const [service] = await waitFor('the service', async () => { const found = await servicesOf(desk); return found.length > 0 ? found : undefined; });
    const env = ((service?.Spec?.TaskTemplate as { ContainerSpec?: { Env?: string[] } }).ContainerSpec?.Env ?? []);
    const value = (name: string) => env.find((entry) => entry.startsWith(`${name}=`))?.slice(name.length + 1) ?? '';
    const url = `${value('DESK_RUNNER_URL')}/git`;
    const token = value('DESK_RUNNER_TOKEN');
    const branch = value('DESK_RUNNER_BRANCH');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/runner\/door\/git$/);

    expect((await gitClient(['ls-remote', url])).output).toMatch(/401|Authentication failed|could not read Username/i);
    expect((await gitClient(['ls-remote', url], 'Authorization: Bearer wrong-token')).ok).toBe(false);
    expect((await gitClient(['ls-remote', url], `Authorization: Bearer ${TEST_TOKEN}`)).ok).toBe(false);
    const auth = `Authorization: Bearer ${token}`;
    const listed = await gitClient(['ls-remote', url], auth);
    expect(listed.ok, listed.output).toBe(true);
    // Only the task's branch is there: not the base, not another task's.
    expect(listed.output.trim().split('\n').map((line) => line.split('\t')[1]).filter((ref) => ref !== 'HEAD')).toEqual([`refs/heads/${branch}`]);

    const clone = mkdtempSync(join(tmpdir(), 'desk-cluster-clone-'));
    scratch.push(clone);
    expect((await gitClient(['clone', '--quiet', url, join(clone, 'w')], auth)).ok).toBe(true);
    const work = join(clone, 'w');
    git(work, 'config', 'user.email', 't@example.com');
    git(work, 'config', 'user.name', 'T');
    git(work, 'commit', '--quiet', '--allow-empty', '-m', 'another ref');
    const otherRef = await gitClient(['-C', work, 'push', 'origin', 'HEAD:refs/heads/main'], auth);
    expect(otherRef.ok).toBe(false);
    expect(otherRef.output).toMatch(/only refs\/heads\/|refus|declined/i);
    const tag = await gitClient(['-C', work, 'push', 'origin', 'HEAD:refs/tags/sneaky'], auth);
    expect(tag.ok).toBe(false);
    // A commit that does not descend from the start: refused even when forced.
    git(work, 'checkout', '--quiet', '--orphan', 'elsewhere');
    git(work, 'commit', '--quiet', '--allow-empty', '-m', 'unrelated history');
    const rewrite = await gitClient(['-C', work, 'push', '--force', 'origin', `HEAD:refs/heads/${branch}`], auth);
    expect(rewrite.ok).toBe(false);
    expect((await gitClient(['ls-remote', url], auth)).output).toContain(listed.output.trim().split('\n').find((line) => line.endsWith(`refs/heads/${branch}`)) ?? '-');

    expect((await desk.api('DELETE', '/door')).status).toBe(200);
    // With the run over, its token opens nothing.
    await waitFor('the door to shut', async () => ((await gitClient(['ls-remote', url], auth)).ok ? undefined : true), 10_000);
    await waitFor('the service to be removed', async () => ((await servicesOf(desk)).length === 0 ? true : undefined), 30_000);
  });
});
