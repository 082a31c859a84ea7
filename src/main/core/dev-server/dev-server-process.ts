// One running dev server: its command started (confined when the task is) with the port in its environment, its
// output streamed as a terminal of the task, HTTP probes until the port answers, and an end that leaves no process.
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { DevServerConfig, DevServerState } from '../../../shared/dev-server';
import type { TaskEvent } from '../../../shared/events';
import { createOutputBatcher } from '../agents/output-batcher';
import { endProcessTree } from '../agents/process-tree';
import type { TaskIsolation } from '../sandbox/task-sandbox';
import { forwarderLauncher } from './forwarder-launcher';
import { freeLoopbackPort, openHostForward, type HostForward } from './host-forward';

const PROBE_EVERY_MS = 200;
const PROBE_TIMEOUT_MS = 1000;

export interface DevServerLaunch {
  config: DevServerConfig;
  worktree: string;
  isolation: Pick<TaskIsolation, 'kind' | 'wrap' | 'env' | 'dispose'>;
  /** The environment the task's agent gets (the isolation's own variables are added here). */
  env: Record<string, string>;
  record(event: TaskEvent): void;
  /** The terminal its output goes to in the task's stream: one per start, so a restart shows as a terminal of its own. */
  terminalId: string;
  /** Ports the desk gave other tasks' unconfined servers. */
  taken: ReadonlySet<number>;
  /** The Node that runs the forwarder inside the sandbox. */
  nodePath: string;
  forwarderEntry?: string;
}

export interface DevServerProcess {
  state(): DevServerState;
  readonly port: number;
  /** Resolves once the server and everything it started are gone, its port freed and its sandbox's temp dir removed. */
  stop(): Promise<void>;
  /** Resolves when the command has exited by itself or was stopped. */
  readonly exited: Promise<void>;
}

export async function launchDevServer(launch: DevServerLaunch): Promise<DevServerProcess> {
  // Bubblewrap gives the task a network of its own: the server's port is carried out to the host's loopback.
  const ownNetwork = launch.isolation.kind === 'bubblewrap';
  const unsandboxed = launch.isolation.kind === 'none';
  let forward: HostForward | undefined;
  let port: number;
  let program: { command: string; args: string[] };
  const shell = ['-c', launch.config.command];
  if (ownNetwork) {
    // The temp dir is the task's own, bound at the same path inside: the forwarder's socket is reachable from here.
    // Never the worktree: a socket there would end up in the task's commit.
    const tempDir = launch.isolation.env.TMPDIR;
    if (tempDir === undefined) throw new Error('The task\'s sandbox has no temp dir for the dev server\'s port forward; this is a bug of the desk, please report it.');
    const socketPath = join(tempDir, 'dev-server.sock');
    // Found before the port is taken, so a desk built without the forwarder leaves no listener behind.
    const launcher = forwarderLauncher(launch.forwarderEntry);
    forward = await openHostForward(socketPath);
    port = forward.port;
    const inner = [...launcher, '--socket', socketPath, '--port', String(port), '--', 'sh', ...shell];
    program = launch.isolation.wrap(launch.nodePath, inner, { cwd: launch.worktree });
  } else {
    port = await freeLoopbackPort(launch.taken);
    program = launch.isolation.wrap('sh', shell, { cwd: launch.worktree });
  }
  const url = `http://127.0.0.1:${port}/`;
  let current: DevServerState = { state: 'starting', port, terminalId: launch.terminalId, ...(unsandboxed && { unsandboxed: true as const }) };

  launch.record({ type: 'terminal-started', terminalId: launch.terminalId, command: 'sh', args: ['-c', launch.config.command], cwd: launch.worktree });
  const batcher = createOutputBatcher({
    intervalMs: 50, maxPending: 64 * 1024,
    emit: (data) => launch.record({ type: 'terminal-output', terminalId: launch.terminalId, data }),
  });
  const env = { ...launch.env, ...launch.isolation.env, [launch.config.portEnv]: String(port) };
  const child = spawn(program.command, program.args, { cwd: launch.worktree, env, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
  const take = (chunk: Buffer) => batcher.push(chunk.toString('utf8'));
  child.stdout.on('data', take);
  child.stderr.on('data', take);

  let probeTimer: ReturnType<typeof setTimeout> | undefined;
  let done = false;
  const exited = new Promise<void>((resolve) => {
    const finish = (exitCode: number | null, signal: string | null) => {
      if (done) return;
      done = true;
      if (probeTimer !== undefined) clearTimeout(probeTimer);
      batcher.flush();
      launch.record({ type: 'terminal-exited', terminalId: launch.terminalId, exitCode, signal });
      // `exited` is said only once the port is free again and the sandbox's temp dir is gone.
      void Promise.all([forward?.close(), launch.isolation.dispose()]).finally(() => {
        current = { state: 'exited', port, terminalId: launch.terminalId, exitCode, signal, ...(unsandboxed && { unsandboxed: true as const }) };
        resolve();
      });
    };
    child.once('error', (error) => {
      batcher.push(`\n${error.message}\n`);
      finish(127, null);
    });
    child.once('close', (code, signal) => finish(code, signal));
  });

  // The link is shown once the server answers HTTP through the same port a person's browser will use.
  const probe = () => {
    probeTimer = undefined;
    if (current.state !== 'starting' || done) return;
    answersHttp(port).then((answers) => {
      if (current.state !== 'starting' || done) return;
      if (answers) current = { ...current, state: 'running', url };
      else probeTimer = setTimeout(probe, PROBE_EVERY_MS);
    }, () => undefined);
  };
  probe();

  return {
    port,
    exited,
    state: () => current,
    async stop() {
      if (!done && child.pid !== undefined) await endProcessTree(child.pid);
      await exited;
    },
  };
}

/** True when a GET of / on 127.0.0.1:<port> gets any HTTP answer (a 404 still means the server is up). */
function answersHttp(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const request = httpRequest({ host: '127.0.0.1', port, path: '/', method: 'GET', timeout: PROBE_TIMEOUT_MS }, (response) => {
      response.resume();
      resolve(true);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
    request.end();
  });
}
