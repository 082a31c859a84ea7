// The `docker` runner: each task's agent runs in a container of the repository's image, its worktree mounted,
// no network unless the agent's allowlist needs one, limits from runners.json; removed when the run ends.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunnersConfig } from '../../../../shared/runners';
import type { AgentPolicy } from '../../../../shared/governance';
import { isDeskError } from '../../../../shared/desk-error';
import { createGitRunner, type GitRunner } from '../../git/git-runner';
import { linkedGitDir } from '../../sandbox/linked-git-dir';
import { expandHome } from '../../sandbox/sandbox-layout';
import type { StateLayers } from '../../sandbox/state-layers';
import type { TaskLayers } from '../../sandbox/task-layers';
import { remoteDockerHost } from '../../workspace/layer-choice';
import { runnerUnavailable } from '../runner-set';
import type { Runner } from '../runner';
import type { DockerClient } from './docker-client';
import { dockerDaemon } from './docker-daemon';
import { startContainerAgent } from './container-agent';
import { createOptions, DESK_LABEL, runArguments, tighterLimits, type ContainerRequest } from './container-spec';
import { containerRunsRoot, openContainerTaskGit, type ContainerTaskGit } from './container-task-git';
import { chooseImage } from './image-choice';
import { removeRunContainers } from './run-containers';
import { openLayerVolume, removeLeftoverVolumes, type LayerVolume } from './layer-volume';

export interface DockerRunnerDeps {
  config: RunnersConfig['docker'];
  deskId: string;
  /** The desk's data dir: each run's task git dir is made below it. */
  dataDir: string;
  repoRoot: string;
  gitCommonDir: string;
  policyFor(agentId: string): Pick<AgentPolicy, 'network' | 'limits'>;
  /** Tests: a client already connected; default: dockerode on `config.host`, else `DOCKER_HOST`. */
  connect?(): Promise<DockerClient>;
  /** The desk's git for the task git dir (default: one with hooks off, like the git service's). */
  git?: GitRunner;
  /** Each task's own copy of its agent's state, the container's HOME (../../sandbox/state-layers.ts). */
  stateLayers?: StateLayers;
  /** The person's home, where the agent's state is read from (an agent's own `env.HOME` wins). */
  home?: string;
  /** Worktrees that are layers over a snapshot (../../sandbox/task-layers.ts): a local daemon mounts them itself for the run. */
  taskLayers?: Pick<TaskLayers, 'lend' | 'has'>;
}

export function createDockerRunner(deps: DockerRunnerDeps): Runner {
  const { config } = deps;
  const daemon = dockerDaemon(config.host, deps.connect);
  const { where } = daemon;
  const git = deps.git ?? createGitRunner({ hooksDir: join(deps.dataDir, 'no-hooks') });
  const daemonHost = config.host ?? process.env.DOCKER_HOST;

  async function ensureImage(dockerClient: DockerClient, image: string): Promise<void> {
    const present = await dockerClient.getImage(image).inspect().then(() => true, () => false);
    if (present) return;
    try {
      const stream = await dockerClient.pull(image);
      await new Promise<void>((resolve, reject) => dockerClient.modem.followProgress(stream, (error: Error | null) => (error ? reject(error) : resolve())));
    } catch (error) {
      throw runnerUnavailable(`Image ${image} is not on the Docker host (${where}) and could not be pulled: ${(error as Error).message}`);
    }
  }

  return {
    kind: 'docker',
    capacity: config.capacity ?? 2,
    enabled: config.enabled,
    async state() {
      try {
        const version = await (await daemon.client()).version();
        return { available: true, detail: `Docker ${version.Version} at ${where}${config.image ? `; default image ${config.image}` : ''}` };
      } catch (error) {
        return daemon.unreachable(error);
      }
    },
    confines: () => true,
    daemonHost,
    async sweep() {
      await daemon.sweep(async (dockerClient) => {
        const left = await dockerClient.listContainers({ all: true, filters: { label: [`${DESK_LABEL}=${deps.deskId}`] } });
        await Promise.all(left.map((info) => dockerClient.getContainer(info.Id).remove({ force: true }).catch(() => undefined)));
        // The layers' volumes, once nothing uses them: every layer is then the desk's holder's to mount.
        await removeLeftoverVolumes(dockerClient, deps.deskId);
      });
      // Task git dirs of runs a stopped desk left: their containers are gone, and their commits were never taken.
      await rm(containerRunsRoot(deps.dataDir), { recursive: true, force: true }).catch(() => undefined);
    },
    async isolate({ taskId, worktree, agent, log, ...request }) {
      const chosen = await chooseImage(deps.repoRoot, config.image).catch((error: unknown) => {
        throw isDeskError(error) ? runnerUnavailable(error.message) : error;
      });
      if (!chosen) throw runnerUnavailable('No image for the docker runner: set "image" in .desk/config.json, .devcontainer/devcontainer.json or runners.json (see docs/runners.md).');
      // A layer is made of paths of this machine: a daemon elsewhere cannot mount it (../../workspace/layer-choice.ts).
      const remote = remoteDockerHost(daemonHost);
      if (remote !== undefined && await deps.taskLayers?.has(worktree)) {
        throw runnerUnavailable(`This task's worktree is a copy-on-write layer of this machine, and the docker runner's daemon at ${remote} is not on this machine. Resubmit the task to start it in a checkout of its own.`);
      }
      const dockerClient = await daemon.reach();
      await ensureImage(dockerClient, chosen.image);
      // The task's own repository, when the desk has several: its history is what the container may read.
      const gitCommonDir = request.gitCommonDir ?? deps.gitCommonDir;
      const worktreeGitDir = await linkedGitDir(worktree, gitCommonDir);
      // The agent's git works in a git dir of this run's own, as in the local sandbox; the desk takes its commits after.
      const taskGit = await openContainerTaskGit(git, { dataDir: deps.dataDir, commonDir: gitCommonDir, worktree, worktreeGitDir });
      let agentCommit: string | undefined;
      const policy = deps.policyFor(agent.id);
      const hosts = policy.network ?? agent.networkHosts ?? [];
      const limits = tighterLimits(config.limits, policy.limits);
      // Docker cannot filter by host name: an allowlist opens the configured network, none keeps it shut.
      const network = hosts.length > 0 ? config.network : 'none';
      if (hosts.length > 0 && !hosts.includes('*')) log(`The docker runner cannot limit the network to ${hosts.join(', ')}: the container gets network "${network}".`);
      // The agent's state, as the local sandbox gives it: the task's own copy, never a bind of the person's.
      const agentHome = agent.env.HOME ?? deps.home;
      const state = agentHome === undefined ? undefined : await deps.stateLayers?.openHome({
        taskId, agentId: agent.id, agentHome, fresh: request.fresh === true, log,
        stateDirs: (agent.stateDirs ?? []).map((dir) => expandHome(dir, agentHome)),
        stateFiles: (agent.stateFiles ?? []).map((file) => expandHome(file, agentHome)),
        loginFiles: (agent.loginFiles ?? []).map((file) => expandHome(file, agentHome)),
      });
      const user = `${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}`;
      // Last, so nothing after it can fail: a layered worktree is the daemon's mount until the run ends.
      let volume: LayerVolume | undefined;
      if (deps.taskLayers) {
        try {
          // A desk that is not root cannot remove what a root daemon's mount leaves: the daemon empties it (layer-volume.ts).
          volume = await openLayerVolume(dockerClient, deps.taskLayers, { deskId: deps.deskId, taskId, image: chosen.image, worktree, user }, { emptyWorkDir: process.getuid?.() !== 0 });
        } catch (error) {
          await taskGit.close();
          for (const line of await state?.release() ?? []) log(line);
          throw runnerUnavailable((error as Error).message);
        }
      }
      const base: Omit<ContainerRequest, 'env'> = {
        deskId: deps.deskId, taskId, image: chosen.image, worktree, gitBinds: taskGit.binds,
        readOnly: config.mounts, network, limits, user,
        ...(state && { home: state.home }),
        ...(volume && { worktreeVolume: volume.name }),
      };
      const agents: { stop(): Promise<void> }[] = [];
      const hostArgs = config.host !== undefined ? ['--host', config.host] : [];
      const limitsNote = [limits.cpus && `${limits.cpus} CPUs`, limits.memoryMb && `${limits.memoryMb} MB`, limits.pids && `${limits.pids} processes`].filter(Boolean).join(', ');
      return {
        kind: 'container',
        description: `In a Docker container (${chosen.image}, from ${chosen.from}) at ${where}: writes only to the worktree${volume ? ' (its copy-on-write layer, mounted by the daemon)' : ''}, its own git dir (the repository's objects read-only, its refs out of reach), its own /tmp${state ? ' and its own home with a copy of the agent\'s state (nothing written there reaches your home but a refreshed login)' : ''}; ${network === 'none' ? 'network off' : `network "${network}"`}${limitsNote ? `; at most ${limitsNote}` : ''}.`,
        env: {},
        // A layered worktree's files are in the daemon's mount while the run lasts: the desk reads and writes them there.
        ...(volume && { reach: volume.reach }),
        // Setup commands and terminals run in containers of their own, beside the agent's, through the docker CLI.
        wrap: (command, args, options = {}) => ({
          command: 'docker',
          args: [...hostArgs, ...runArguments({ ...base, env: {} }, command, args, { cwd: options.cwd ?? worktree, ...(options.terminal && { terminal: true }) })],
        }),
        async startAgent(options) {
          const running = await startContainerAgent(dockerClient, createOptions({ ...base, env: options.env }, options.command, options.args, options.cwd), options.onLogLine);
          agents.push(running);
          return running;
        },
        async dispose() {
          await Promise.all(agents.map((running) => running.stop()));
          try {
            agentCommit = await endRun(dockerClient, `${DESK_LABEL}=${deps.deskId}`, taskGit, log, volume);
          } finally {
            for (const line of await state?.release() ?? []) log(line);
          }
        },
        agentCommit: () => agentCommit,
      };
    },
  };
}

/** After the agent: no container of the run is left to change the task git dir while the desk takes its commits. */
async function endRun(dockerClient: DockerClient, deskLabel: string, taskGit: ContainerTaskGit, log: (line: string) => void, volume: LayerVolume | undefined): Promise<string | undefined> {
  try {
    await removeRunContainers(dockerClient, deskLabel, taskGit.root);
    // Then the layer's mount goes, and the layer is the holder's again (the desk's commit mounts it).
    await volume?.close();
    return await taskGit.takeCommits(log);
  } finally {
    await taskGit.close();
  }
}
