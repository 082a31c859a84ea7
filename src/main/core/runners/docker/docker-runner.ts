// The `docker` runner: each task's agent runs in a container of the repository's image, its worktree mounted,
// no network unless the agent's allowlist needs one, limits from runners.json; removed when the run ends.
import type { RunnersConfig } from '../../../../shared/runners';
import type { AgentPolicy } from '../../../../shared/governance';
import { isDeskError } from '../../../../shared/desk-error';
import { linkedGitDir } from '../../sandbox/task-sandbox';
import { runnerUnavailable } from '../runner-set';
import type { Runner } from '../runner';
import { connectDocker, type DockerClient } from './docker-client';
import { startContainerAgent } from './container-agent';
import { createOptions, DESK_LABEL, runArguments, tighterLimits, type ContainerRequest } from './container-spec';
import { chooseImage } from './image-choice';

export interface DockerRunnerDeps {
  config: RunnersConfig['docker'];
  deskId: string;
  repoRoot: string;
  gitCommonDir: string;
  policyFor(agentId: string): Pick<AgentPolicy, 'network' | 'limits'>;
  /** Tests: a client already connected; default: dockerode on `config.host`, else `DOCKER_HOST`. */
  connect?(): Promise<DockerClient>;
}

export function createDockerRunner(deps: DockerRunnerDeps): Runner {
  const { config } = deps;
  let client: Promise<DockerClient> | undefined;
  const docker = () => (client ??= (deps.connect ?? (() => connectDocker(config.host)))());
  const where = config.host ?? process.env.DOCKER_HOST ?? 'the local Docker socket';

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
        const version = await (await docker()).version();
        return { available: true, detail: `Docker ${version.Version} at ${where}${config.image ? `; default image ${config.image}` : ''}` };
      } catch (error) {
        return { available: false, detail: `Docker at ${where} cannot be reached: ${(error as Error).message}` };
      }
    },
    confines: () => true,
    async sweep() {
      try {
        const dockerClient = await docker();
        const left = await dockerClient.listContainers({ all: true, filters: { label: [`${DESK_LABEL}=${deps.deskId}`] } });
        await Promise.all(left.map((info) => dockerClient.getContainer(info.Id).remove({ force: true }).catch(() => undefined)));
      } catch {
        // No daemon now: nothing of ours can run there either; Settings says why.
      }
    },
    async isolate({ taskId, worktree, agent, log, ...request }) {
      const chosen = await chooseImage(deps.repoRoot, config.image).catch((error: unknown) => {
        throw isDeskError(error) ? runnerUnavailable(error.message) : error;
      });
      if (!chosen) throw runnerUnavailable('No image for the docker runner: set "image" in .desk/config.json, .devcontainer/devcontainer.json or runners.json (see docs/runners.md).');
      let dockerClient: DockerClient;
      try {
        dockerClient = await docker();
        await dockerClient.ping();
      } catch (error) {
        throw isDeskError(error) ? error : runnerUnavailable(`Docker at ${where} cannot be reached: ${(error as Error).message}`);
      }
      await ensureImage(dockerClient, chosen.image);
      // The task's own repository, when the desk has several: its history is what the container may read.
      const gitCommonDir = request.gitCommonDir ?? deps.gitCommonDir;
      const worktreeGitDir = await linkedGitDir(worktree, gitCommonDir);
      const policy = deps.policyFor(agent.id);
      const hosts = policy.network ?? agent.networkHosts ?? [];
      const limits = tighterLimits(config.limits, policy.limits);
      // Docker cannot filter by host name: an allowlist opens the configured network, none keeps it shut.
      const network = hosts.length > 0 ? config.network : 'none';
      if (hosts.length > 0 && !hosts.includes('*')) log(`The docker runner cannot limit the network to ${hosts.join(', ')}: the container gets network "${network}".`);
      const base: Omit<ContainerRequest, 'env'> = {
        deskId: deps.deskId, taskId, image: chosen.image, worktree, gitCommonDir, worktreeGitDir,
        readOnly: config.mounts, network, limits, user: `${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}`,
      };
      const agents: { stop(): Promise<void> }[] = [];
      const hostArgs = config.host !== undefined ? ['--host', config.host] : [];
      const limitsNote = [limits.cpus && `${limits.cpus} CPUs`, limits.memoryMb && `${limits.memoryMb} MB`, limits.pids && `${limits.pids} processes`].filter(Boolean).join(', ');
      return {
        kind: 'container',
        description: `In a Docker container (${chosen.image}, from ${chosen.from}) at ${where}: writes only to the worktree and its own /tmp; ${network === 'none' ? 'network off' : `network "${network}"`}${limitsNote ? `; at most ${limitsNote}` : ''}.`,
        env: {},
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
        },
      };
    },
  };
}
