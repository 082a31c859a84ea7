// Global setup of `npm run test:runners`: starts a Docker daemon of the tests' own (vfs storage, no iptables, no
// bridge: it runs inside containers and CI machines too) and builds the test image once; both are handed to the
// specs through `inject`. Where Docker cannot run the specs skip with the reason, unless DESK_REQUIRE_DOCKER=1.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Dockerode from 'dockerode';
import type { TestProject } from 'vitest/node';
import { buildTestImage } from './test-image';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `unix:///…/docker.sock` of the tests' daemon, or '' when Docker cannot run here. */
    dockerHost: string;
    /** Why Docker cannot run here ('' when it can). */
    dockerSkip: string;
    /** The test image: the loader and libraries the tests' Node and git need, and a shell (both are mounted). */
    dockerImage: string;
    /** Why the daemon is no one-node swarm for the cluster specs ('' when it is). */
    swarmSkip: string;
  }
}

/** Kept between runs, so the image is built once per machine (the daemon's state is its own, not the system's). */
const DATA_ROOT = join(tmpdir(), 'desk-test-dockerd');
const START_LIMIT_MS = 60_000;

export default async function startDockerDaemon(project: TestProject): Promise<() => Promise<void>> {
  const skip = (reason: string) => {
    if (process.env.DESK_REQUIRE_DOCKER === '1') throw new Error(`DESK_REQUIRE_DOCKER=1 but Docker cannot run here: ${reason}`);
    process.stderr.write(`Runner specs skip: ${reason}\n`);
    project.provide('dockerHost', '');
    project.provide('dockerSkip', reason);
    project.provide('dockerImage', '');
    project.provide('swarmSkip', reason);
    return async () => {};
  };
  if (process.platform !== 'linux') return skip('the tests start their own dockerd, which needs Linux.');
  if (process.getuid?.() !== 0) return skip('starting dockerd needs root.');
  const dockerd = spawnSync('sh', ['-c', 'command -v dockerd'], { encoding: 'utf8' }).stdout.trim();
  if (!dockerd) return skip('dockerd is not installed (Debian: apt-get install docker.io).');

  // Sockets need short paths: the exec root and the socket live in a short dir of their own.
  const runDir = join('/tmp', `desk-dk-${process.pid}`);
  mkdirSync(runDir, { recursive: true });
  mkdirSync(DATA_ROOT, { recursive: true });
  const socket = join(runDir, 'docker.sock');
  const logFile = join(runDir, 'dockerd.log');
  const daemon: ChildProcess = spawn(dockerd, [
    '--data-root', DATA_ROOT, '--exec-root', join(runDir, 'exec'), '--pidfile', join(runDir, 'dockerd.pid'),
    '--host', `unix://${socket}`, '--storage-driver=vfs', '--iptables=false', '--ip6tables=false', '--bridge=none',
  ], { stdio: ['ignore', openSync(logFile, 'a'), openSync(logFile, 'a')] });
  const stop = async () => {
    if (daemon.exitCode === null && daemon.signalCode === null) {
      daemon.kill('SIGTERM');
      await new Promise((resolve) => { daemon.once('exit', resolve); setTimeout(resolve, 15_000).unref(); });
    }
    // dockerd may leave its network namespace mounted below the exec root; a few bytes in /tmp are no failure.
    spawnSync('umount', ['-l', join(runDir, 'exec', 'netns', 'default')], { stdio: 'ignore' });
    try {
      rmSync(runDir, { recursive: true, force: true });
    } catch {
      // See above.
    }
  };
  const host = `unix://${socket}`;
  const started = Date.now();
  const { default: Docker } = await import('dockerode');
  const docker = new Docker({ socketPath: socket });
  for (;;) {
    if (daemon.exitCode !== null) {
      const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-5).join('\n') : '';
      await stop();
      return skip(`dockerd exited at start: ${log}`);
    }
    if (await docker.ping().then(() => true, () => false)) break;
    if (Date.now() - started > START_LIMIT_MS) {
      await stop();
      return skip(`dockerd did not answer within ${START_LIMIT_MS / 1000} s`);
    }
    await new Promise((resolve) => { setTimeout(resolve, 200); });
  }
  try {
    project.provide('dockerImage', await buildTestImage(docker));
  } catch (error) {
    await stop();
    throw error;
  }
  project.provide('dockerHost', host);
  project.provide('dockerSkip', '');
  project.provide('swarmSkip', await joinOneNodeSwarm(docker));
  return stop;
}

/**
 * The daemon as a one-node swarm for the cluster runner (kept in its data root between runs). Returns why not, or
 * ''; with DESK_REQUIRE_DOCKER=1 a daemon that runs but cannot be a swarm fails the run instead.
 */
async function joinOneNodeSwarm(docker: Dockerode): Promise<string> {
  const state = async () => ((await docker.info()) as { Swarm?: { LocalNodeState?: string } }).Swarm?.LocalNodeState;
  try {
    if (await state() !== 'active') await docker.swarmInit({ ListenAddr: '127.0.0.1:2377', AdvertiseAddr: '127.0.0.1' });
    if (await state() === 'active') return '';
    throw new Error(`the swarm is ${await state()}`);
  } catch (error) {
    const reason = `docker swarm init failed: ${(error as Error).message}`;
    if (process.env.DESK_REQUIRE_DOCKER === '1') throw new Error(`DESK_REQUIRE_DOCKER=1 but ${reason}`);
    process.stderr.write(`Cluster runner specs skip: ${reason}\n`);
    return reason;
  }
}
