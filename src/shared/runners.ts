// The runner contract: where a task's agent runs (this machine's sandbox, a Docker container, a cluster), how
// the desk is told about each runner, and what Settings shows of them.
import { z } from 'zod';
import { ResourceLimits } from './limits';

/** `local`: the agent runs on this machine in the OS sandbox (the default); `docker`: in a container; `cluster`: as a swarm service task, with no shared disk. */
export const RunnerKind = z.enum(['local', 'docker', 'cluster']);
export type RunnerKind = z.infer<typeof RunnerKind>;

const Capacity = z.int().min(1).max(1000);

/** CPU, memory and process limits for a container: the same contract as the policy's `limits` (./limits.ts). */
export const ContainerLimits = ResourceLimits;
export type ContainerLimits = ResourceLimits;

/** A path of this machine the container sees read-only at the same place (e.g. where an agent is installed). */
export const ContainerMount = z.string().min(1).max(1000).refine((path) => path.startsWith('/'), 'must be absolute');

/**
 * `<dataDir>/runners.json`: which runners the desk may use and how. Every part may be left out. The `local`
 * runner is always there; its capacity is the desk's concurrency setting.
 */
export const RunnersConfig = z.strictObject({
  /** The runner a task gets when its submission names none. */
  default: RunnerKind.default('local'),
  docker: z.strictObject({
    /** Off unless set: the desk never reaches for a Docker daemon it was not told to use. */
    enabled: z.boolean().default(false),
    capacity: Capacity.optional(),
    /** `unix:///path/docker.sock` or `tcp://host:port`; default: `DOCKER_HOST`, else the local socket. */
    host: z.string().min(1).max(1000).optional(),
    /** The image when the repository names none (`.desk/config.json` `image`, `.devcontainer/devcontainer.json` `image`). */
    image: z.string().min(1).max(500).optional(),
    /** Docker's network for agents whose policy lets them reach the network; `none` is used otherwise. */
    network: z.string().min(1).max(200).default('bridge'),
    limits: ContainerLimits.prefault({}),
    /** Paths of this machine mounted read-only at the same place, e.g. an agent's installation. */
    mounts: z.array(ContainerMount).max(50).default([]),
  }).prefault({}),
  cluster: z.strictObject({
    /** Off unless set, like `docker`. */
    enabled: z.boolean().default(false),
    capacity: Capacity.optional(),
    /** Where services are created: a Docker Swarm manager (tested) — Kubernetes is designed in docs/runners.md. */
    orchestrator: z.literal('swarm').default('swarm'),
    /** The swarm manager's Docker API, as `docker.host`; default `DOCKER_HOST`, else the local socket. */
    host: z.string().min(1).max(1000).optional(),
    /** The image of every task's container: it must hold `node`, `git` and the desk-runner helper (docs/runners.md). */
    image: z.string().min(1).max(500).optional(),
    /** How a container reaches this desk (e.g. `http://10.0.0.5:4321`); default: the address the desk listens on. */
    deskUrl: z.url({ protocol: /^https?$/ }).max(1000).optional(),
    /** The swarm network a task's container joins; it must reach `deskUrl`. */
    network: z.string().min(1).max(200).default('host'),
    /** The helper in the image, run as `<node> <helper> -- <agent command>`. */
    helper: z.string().min(1).max(1000).refine((path) => path.startsWith('/'), 'must be absolute').default('/opt/desk-runner/desk-runner.mjs'),
    node: z.string().min(1).max(1000).default('node'),
    limits: ContainerLimits.prefault({}),
    /** Paths every node has, mounted read-only at the same place (e.g. an agent installed on each node). */
    mounts: z.array(ContainerMount).max(50).default([]),
    /** How long a container may take to start (an image pull on a node) and call back before its task fails. */
    connectSeconds: z.int().min(5).max(3600).default(180),
  }).prefault({}),
}).refine((config) => config.default === 'local' || config[config.default].enabled, {
  path: ['default'], message: 'names a runner that is not enabled here',
});
export type RunnersConfig = z.infer<typeof RunnersConfig>;

/** Below this path the desk answers cluster containers only, each with its run's own token (docs/runners.md). */
export const RUNNER_PATH_PREFIX = '/runner/';

/** One runner as Settings shows it (`GET /api/runners`). */
export const RunnerState = z.object({
  kind: RunnerKind,
  /** Whether tasks can run on it now. */
  available: z.boolean(),
  /** One line: what it is (e.g. "Docker 20.10.24 at unix:///var/run/docker.sock"), or why it cannot be used. */
  detail: z.string(),
  /** Tasks it runs at once at most. */
  capacity: z.int(),
  /** Tasks running on it now. */
  running: z.int(),
  isDefault: z.boolean(),
});
export type RunnerState = z.infer<typeof RunnerState>;

export const RunnersView = z.object({ runners: z.array(RunnerState) });
export type RunnersView = z.infer<typeof RunnersView>;
