// The `cluster` runner: each task's agent runs as a one-replica Docker Swarm service somewhere in the cluster, with
// no disk shared with the desk. The container's helper clones the task's start from the desk (git over HTTP with the
// run's token), calls back with one connection for the agent's stream, and pushes the turn's work back; the desk
// takes only that branch, only as a fast-forward, then commits it as it commits a local task's work.
import { randomBytes } from 'node:crypto';
import type { AgentPolicy } from '../../../../shared/governance';
import type { RunnersConfig } from '../../../../shared/runners';
import { agentStartFailed, type RunningAgent } from '../../agents/agent-process';
import { createGitRunner } from '../../git/git-runner';
import { linkedGitDir } from '../../sandbox/linked-git-dir';
import type { DockerClient } from '../docker/docker-client';
import { dockerDaemon } from '../docker/docker-daemon';
import { DESK_LABEL, tighterLimits } from '../docker/container-spec';
import { runnerUnavailable } from '../runner-set';
import type { Runner, RunnerIsolation } from '../runner';
import type { RunnerGate } from './runner-gate';
import type { RunnerLink } from './runner-link';
import { serviceName, serviceSpec } from './swarm-service';
import { openTaskExchange } from './task-git-exchange';

export interface ClusterRunnerDeps {
  config: RunnersConfig['cluster'];
  deskId: string;
  dataDir: string;
  gitCommonDir: string;
  gate: Pick<RunnerGate, 'open'>;
  /** The desk's own address, once it listens: what containers call when `deskUrl` is not configured. */
  listeningUrl(): string | undefined;
  policyFor(agentId: string): Pick<AgentPolicy, 'network' | 'limits'>;
  /** Tests: a client already connected; default: dockerode on `config.host`, else `DOCKER_HOST`. */
  connect?(): Promise<DockerClient>;
}

/** Task states after which a service's container will not call back any more. */
const ENDED_STATES = new Set(['complete', 'failed', 'shutdown', 'rejected', 'orphaned', 'remove']);
const WATCH_INTERVAL_MS = 1000;

export function createClusterRunner(deps: ClusterRunnerDeps): Runner {
  const { config } = deps;
  const daemon = dockerDaemon(config.host, deps.connect);
  const { where } = daemon;
  const git = createGitRunner();

  async function removeService(dockerClient: DockerClient, name: string): Promise<void> {
    // 404: already gone (a sweep, or a person) — the end wanted either way.
    await dockerClient.getService(name).remove().catch(() => undefined);
  }

  /** Why the service's container ended before it called back, from the orchestrator's own words; undefined while it may still. */
  async function endedBeforeCalling(dockerClient: DockerClient, name: string): Promise<string | undefined> {
    const tasks = await dockerClient.listTasks({ filters: { service: [name] } }).catch(() => []) as { Status?: { State?: string; Err?: string; Message?: string; ContainerStatus?: { ExitCode?: number } } }[];
    const ended = tasks.find((task) => ENDED_STATES.has(task.Status?.State ?? ''));
    if (!ended) return undefined;
    const status = ended.Status ?? {};
    const logs = await serviceLogs(dockerClient, name);
    const exit = status.ContainerStatus?.ExitCode;
    return `The cluster container ended before it connected (${status.State}${exit !== undefined ? `, exit code ${exit}` : ''}${status.Err ? `: ${status.Err}` : ''})${logs ? `: ${logs}` : '.'}`;
  }

  return {
    kind: 'cluster',
    capacity: config.capacity ?? 4,
    enabled: config.enabled,
    async state() {
      try {
        const dockerClient = await daemon.client();
        const info = await dockerClient.info() as { Swarm?: { LocalNodeState?: string; ControlAvailable?: boolean; Nodes?: number } };
        const swarm = info.Swarm ?? {};
        if (swarm.LocalNodeState !== 'active' || !swarm.ControlAvailable) {
          return { available: false, detail: `Docker at ${where} is not a swarm manager (${swarm.LocalNodeState ?? 'no swarm'}): run "docker swarm init" there, or point "cluster.host" at a manager.` };
        }
        const url = config.deskUrl ?? deps.listeningUrl();
        return { available: true, detail: `Docker Swarm at ${where} (${swarm.Nodes ?? '?'} node${swarm.Nodes === 1 ? '' : 's'}); image ${config.image ?? '(none set)'}; containers call ${url ?? 'the desk once it listens'}` };
      } catch (error) {
        return daemon.unreachable(error);
      }
    },
    confines: () => true,
    sweep: () => daemon.sweep(async (dockerClient) => {
      const left = await dockerClient.listServices({ filters: { label: [`${DESK_LABEL}=${deps.deskId}`] } }) as { ID: string }[];
      await Promise.all(left.map((service) => removeService(dockerClient, service.ID)));
    }),
    async isolate({ taskId, worktree, agent, log, ...request }) {
      if (!config.image) throw runnerUnavailable('No image for the cluster runner: set "cluster.image" in runners.json (see docs/runners.md).');
      const deskUrl = config.deskUrl ?? deps.listeningUrl();
      if (!deskUrl) throw runnerUnavailable('The cluster runner needs the desk\'s address: set "cluster.deskUrl" in runners.json.');
      const dockerClient = await daemon.reach();
      const gitCommonDir = request.gitCommonDir ?? deps.gitCommonDir;
      const repo = { gitDir: await linkedGitDir(worktree, gitCommonDir), workTree: worktree, commonDir: gitCommonDir };
      const branch = await git.run(repo, ['symbolic-ref', '--short', 'HEAD']);
      const startCommit = await git.run(repo, ['rev-parse', 'HEAD']);
      const exchange = await openTaskExchange({ dataDir: deps.dataDir, taskId, gitCommonDir, branch, startCommit });

      const policy = deps.policyFor(agent.id);
      const hosts = policy.network ?? agent.networkHosts ?? [];
      // The container must reach the desk, so it always has the configured network; Swarm cannot narrow it further.
      if (!hosts.includes('*')) log(`The cluster runner cannot keep the container off the network "${config.network}" it needs to reach the desk${hosts.length > 0 ? `, nor limit it to ${hosts.join(', ')}` : ''}.`);
      const limits = tighterLimits(config.limits, policy.limits);
      const name = serviceName(deps.deskId, taskId, randomBytes(3).toString('hex'));
      let link: RunnerLink | undefined;
      let run: ReturnType<RunnerGate['open']> | undefined;
      let started = false;
      const linked = (): RunnerLink => {
        if (!link) throw new Error('The cluster container has not connected.');
        return link;
      };
      const end = async () => {
        run?.close();
        if (started) await removeService(dockerClient, name);
      };

      const isolation: RunnerIsolation = {
        kind: 'container',
        description: `In a Docker Swarm service ${name} (${config.image}) at ${where}: its own disk (a clone of ${branch} at ${startCommit.slice(0, 12)}), network "${config.network}", reaching the desk at ${deskUrl}.`,
        env: {},
        // The repository's setup runs before the agent's container exists: on the cluster it belongs in the image.
        wrap: (command) => ({
          command: process.execPath,
          args: ['-e', `console.error(${JSON.stringify(`Not run: ${command}. Setup commands do not run on the cluster runner; build them into the image (docs/runners.md).`)}); process.exit(1)`],
        }),
        files: {
          readTextFile: (fileRequest) => linked().files.readTextFile(fileRequest),
          writeTextFile: (fileRequest) => linked().files.writeTextFile(fileRequest),
        },
        terminals: (options) => linked().terminals(options),
        async collect() {
          await linked().push().catch((error: unknown) => {
            throw new Error(`The cluster container's work could not be taken back: ${error instanceof Error ? error.message : String(error)}`);
          });
          await exchange.bringInto(worktree);
        },
        async startAgent(options) {
          run = deps.gate.open(taskId, exchange, options.onLogLine);
          const spec = serviceSpec({
            deskId: deps.deskId, taskId, image: config.image as string, helper: config.helper, node: config.node,
            command: options.command, args: options.args, env: options.env,
            run: { url: new URL(run.path, deskUrl).href, token: run.token, worktree, branch },
            network: config.network, limits, readOnly: config.mounts,
          }, name);
          try {
            await dockerClient.createService(spec);
            started = true;
          } catch (error) {
            throw agentStartFailed(`The swarm at ${where} refused the service: ${(error as Error).message}`);
          }
          link = await waitForCall(run.connected, () => endedBeforeCalling(dockerClient, name), config.connectSeconds * 1000).catch(async (error: unknown) => {
            await end();
            throw error;
          });
          return wholeRun(link.agent, end);
        },
        async dispose() {
          await end();
          await exchange.close();
        },
      };
      return isolation;
    },
  };
}

/** The container's call, or why it will not come: the service ended first, or the time ran out. */
async function waitForCall(connected: Promise<RunnerLink>, ended: () => Promise<string | undefined>, limitMs: number): Promise<RunnerLink> {
  const deadline = Date.now() + limitMs;
  let settled = false;
  const watch = new Promise<never>((_, reject) => {
    const check = async () => {
      if (settled) return;
      const why = await ended();
      if (why !== undefined) return reject(agentStartFailed(why));
      if (Date.now() > deadline) return reject(agentStartFailed(`The cluster container did not connect within ${Math.round(limitMs / 1000)} s (an image pull, or no route from the node to the desk).`));
      setTimeout(() => void check(), WATCH_INTERVAL_MS).unref();
    };
    setTimeout(() => void check(), WATCH_INTERVAL_MS).unref();
  });
  try {
    return await Promise.race([connected, watch]);
  } finally {
    settled = true;
  }
}

/** The agent seen through its link, whose stop also removes its service (its container, wherever it runs). */
function wholeRun(agent: RunningAgent, end: () => Promise<void>): RunningAgent {
  return {
    where: agent.where,
    stdin: agent.stdin,
    stdout: agent.stdout,
    exited: agent.exited,
    recentLog: () => agent.recentLog(),
    cancelGraceMs: agent.cancelGraceMs ?? 0,
    async stop() {
      await agent.stop();
      await end();
    },
  };
}

/** The last lines the service wrote (the helper's clone or connect failure), for the task's error. */
async function serviceLogs(dockerClient: DockerClient, name: string): Promise<string> {
  try {
    const raw = await dockerClient.getService(name).logs({ stdout: true, stderr: true, tail: 5 }) as unknown as Buffer;
    // Multiplexed frames: an 8-byte header before each chunk.
    const lines: string[] = [];
    for (let offset = 0; offset + 8 <= raw.length;) {
      const size = raw.readUInt32BE(offset + 4);
      lines.push(raw.subarray(offset + 8, offset + 8 + size).toString('utf8'));
      offset += 8 + size;
    }
    return lines.join('').trim().split('\n').slice(-5).join(' / ');
  } catch {
    return '';
  }
}
