// Tasks on the docker runner, against the daemon docker-daemon.ts starts: they commit like local ones, cancel and
// a killed desk leave no container behind, and a container has no network unless the agent's policy opens it.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AgentSpec } from '../../src/main/core/agents/agent-spec';
import type { CoreConfig } from '../../src/main/core/core-config';
import { loadDeskId } from '../../src/main/core/git/desk-id';
import { git } from '../../src/main/core/git/git-test-fixture';
import { DESK_LABEL, TASK_LABEL } from '../../src/main/core/runners/docker/container-spec';
import { containerRunsRoot } from '../../src/main/core/runners/docker/container-task-git';
import { ROLE_LABEL } from '../../src/main/core/runners/docker/layer-volume-spec';
import { nodePaths } from './test-image';
import { dockerRunnersFor, type DockerRunnerConfig } from './docker-test-config';
import { desksPerTest, scriptedAgent, startDesk, destroyDesk, TEST_TOKEN, type Desk } from '../../src/main/core/test-support/desk-harness';

const host = inject('dockerHost');
const image = inject('dockerImage');
const skipReason = inject('dockerSkip');
const PROJECT_ROOT = resolve(import.meta.dirname, '../..');

const dockerRunners = (over: Partial<DockerRunnerConfig> = {}): CoreConfig['runners'] => dockerRunnersFor(host, image, over);

const openDesk = desksPerTest();
let docker: Docker;

async function containersOf(desk: Pick<Desk, 'dataDir'>, taskId?: string): Promise<Docker.ContainerInfo[]> {
  const deskId = await loadDeskId(desk.dataDir);
  return docker.listContainers({ all: true, filters: { label: [`${DESK_LABEL}=${deskId}`, ...(taskId ? [`${TASK_LABEL}=${taskId}`] : [])] } });
}

/** The task git dirs of runs still in the data dir (container-task-git.ts). */
function runDirsOf(desk: Pick<Desk, 'dataDir'>): string[] {
  const root = containerRunsRoot(desk.dataDir);
  return existsSync(root) ? readdirSync(root) : [];
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, limitMs = 60_000): Promise<T> {
  const until = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((done) => { setTimeout(done, 100); });
  }
}

if (!host) describe.skip(`docker runner (skipped: ${skipReason})`, () => { it('needs Docker', () => {}); });
else describe('the docker runner', () => {
  beforeAll(() => { docker = new Docker({ socketPath: new URL(host).pathname }); });

  it('runs a task in a container and commits its work like a local task, leaving no container', async () => {
    const desk = await openDesk({ runners: dockerRunners() });
    await desk.api('POST', '/', { id: 'boxed', prompt: 'write hello.txt Hello from a container\nsay done', runner: 'docker' });
    await desk.waitForStatus('boxed', ['completed', 'error'], 90_000);
    const detail = (await desk.api('GET', '/tasks/boxed')).json;
    expect(detail).toMatchObject({ status: 'completed', runner: 'docker' });
    expect(git(desk.repo, 'show', `${detail.commit}:hello.txt`)).toBe('Hello from a container');
    expect(git(desk.repo, 'log', '-1', '--format=%B', detail.commit)).toContain('Task-Id: boxed');
    const events = (await desk.api('GET', '/api/tasks/boxed/events')).json.events as { event: { text?: string } }[];
    expect(events.some((e) => /In a Docker container \(desk-test-node:/.test(e.event.text ?? ''))).toBe(true);
    expect(await containersOf(desk)).toEqual([]);
    expect(runDirsOf(desk)).toEqual([]);
  });

  it('gives the container the limits of the configuration and the policy, its labels, no network, and removes it within 3 s of a cancel', async () => {
    // The policy's process limit is tighter than runners.json's 256: the tighter one wins.
    const desk = await openDesk({ runners: dockerRunners(), policy: { version: 1, defaults: { containerLimits: { pids: 128 } } } });
    await desk.api('POST', '/', { id: 'long', prompt: 'sleep 60000', runner: 'docker' });
    // The agent's container (a layered worktree's keeper, under DESK_TEST_LAYERS=always, is another).
    const [info] = await waitFor('the container', async () => { const found = (await containersOf(desk, 'long')).filter((c) => c.Labels[ROLE_LABEL] === undefined); return found.length > 0 ? found : undefined; });
    const inspected = await docker.getContainer((info as Docker.ContainerInfo).Id).inspect().catch(async (error: unknown) => {
      const events = (await desk.api('GET', '/api/tasks/long/events')).json.events as { event: unknown }[];
      throw new Error(`${String(error)}; the task's events: ${JSON.stringify(events.map((e) => e.event))}`);
    });
    expect(inspected.HostConfig).toMatchObject({ NetworkMode: 'none', PidsLimit: 128, Memory: 1024 * 1024 * 1024, NanoCpus: 1e9 });
    expect(inspected.Config.Labels[TASK_LABEL]).toBe('long');
    await desk.waitForStatus('long', 'in-progress');

    // The cancel answers once the agent is gone: by then its container must be removed, not merely stopping.
    const cancelledAt = Date.now();
    expect((await desk.api('DELETE', '/long')).status).toBe(200);
    expect(Date.now() - cancelledAt).toBeLessThan(3000);
    expect(await containersOf(desk, 'long')).toEqual([]);
    expect((await desk.api('GET', '/tasks/long')).json.status).toBe('cancelled');
  });

  it('leaves no container of a desk killed with SIGKILL once it restarts, and runs the task again', async () => {
    const first = await openDesk({ runners: dockerRunners() });
    await first.close();
    let child: ChildProcess | undefined;
    try {
      child = spawn(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, 'desk-process.ts'), JSON.stringify({
        repo: first.repo, dataDir: first.dataDir, token: TEST_TOKEN, runners: dockerRunners(),
      })], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
      const [line] = await once(createInterface({ input: child.stdout as NodeJS.ReadableStream }), 'line') as [string];
      const url = line.replace('listening ', '');
      const submitted = await fetch(`${url}/`, {
        method: 'POST', headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'survivor', prompt: 'sleep 10000\nwrite after.txt ran again', runner: 'docker' }),
      });
      expect(submitted.status).toBe(202);
      const [before] = await waitFor('the first container', async () => { const found = await containersOf(first, 'survivor'); return found.length > 0 ? found : undefined; });
      // What a crash can leave besides: a container of this desk that no task owns any more.
      const deskId = await loadDeskId(first.dataDir);
      const stray = await docker.createContainer({ Image: image, Entrypoint: [process.execPath], Cmd: ['-e', 'setInterval(() => {}, 1000)'], Labels: { [DESK_LABEL]: deskId, [TASK_LABEL]: 'stray' }, HostConfig: { NetworkMode: 'none', Binds: nodePaths().map((path) => `${path}:${path}:ro`) } });
      await stray.start();

      child.kill('SIGKILL');
      await once(child, 'exit');
      const restarted = await startDesk({ reuse: { root: first.root, repo: first.repo, dataDir: first.dataDir }, runners: dockerRunners() });
      try {
        const left = (await containersOf(restarted)).map((container) => container.Id);
        expect(left).not.toContain((before as Docker.ContainerInfo).Id);
        expect(left).not.toContain(stray.id);
        await restarted.waitForStatus('survivor', ['completed', 'error'], 90_000);
        const detail = (await restarted.api('GET', '/tasks/survivor')).json;
        expect(detail).toMatchObject({ status: 'completed', attempt: 2 });
        expect(git(restarted.repo, 'show', `${detail.commit}:after.txt`)).toBe('ran again');
        expect(await containersOf(restarted)).toEqual([]);
        // The killed desk's task git dir too: its commits were never taken, and nothing runs in it any more.
        expect(runDirsOf(restarted)).toEqual([]);
      } finally {
        await destroyDesk(restarted);
      }
    } finally {
      if (child && child.exitCode === null) child.kill('SIGKILL');
    }
  });

  describe('the network', () => {
    let server: Server;
    let port: number;
    beforeAll(async () => {
      // The prober exits as soon as it connects, which resets the connection: that is expected, not an error.
      server = createServer((socket) => { socket.on('error', () => {}); socket.end('hello\n'); });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      port = (server.address() as { port: number }).port;
    });
    afterAll(() => { server.close(); });

    /** Not an ACP agent: it tries the test's server on the desk's loopback and says what happened through its exit. */
    const prober = (id: string): AgentSpec => ({
      ...scriptedAgent(), id, name: id, command: process.execPath,
      args: ['-e', `require('net').connect(${port}, '127.0.0.1').on('connect', () => { console.error('REACHED'); process.exit(3); }).on('error', (e) => { console.error('BLOCKED ' + e.code); process.exit(4); })`],
    });

    it('is shut for an agent whose policy allows no host, and open for one the policy lets out', async () => {
      const desk = await openDesk({
        agents: [scriptedAgent(), prober('shut'), prober('open')],
        // `host`: the tests' daemon has no bridge; an open agent shares the desk's network, loopback included.
        runners: dockerRunners({ network: 'host' }),
        policy: { version: 1, agents: { open: { network: ['*'] } } },
      });
      await desk.api('POST', '/', { id: 'shut', prompt: 'probe', agent: 'shut', runner: 'docker' });
      await desk.api('POST', '/', { id: 'open', prompt: 'probe', agent: 'open', runner: 'docker' });
      await desk.waitForStatus('shut', 'error', 90_000);
      await desk.waitForStatus('open', 'error', 90_000);
      expect((await desk.api('GET', '/tasks/shut')).json.errorMessage).toMatch(/exited with code 4: BLOCKED ECONNREFUSED/);
      expect((await desk.api('GET', '/tasks/open')).json.errorMessage).toMatch(/exited with code 3: REACHED/);
    });
  });
});
