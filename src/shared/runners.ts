// The runner contract: where a task's agent runs (this machine's sandbox, a Docker container, a cluster), how
// the desk is told about each runner, and what Settings shows of them.
import { z } from 'zod';

/** `local`: the agent runs on this machine in the OS sandbox (the default); `docker`: in a container; `cluster`: as a swarm service task. */
export const RunnerKind = z.enum(['local', 'docker', 'cluster']);
export type RunnerKind = z.infer<typeof RunnerKind>;

const Capacity = z.int().min(1).max(1000);

/** CPU, memory and process limits for a container (the governance policy may set tighter ones per agent). */
export const ContainerLimits = z.strictObject({
  /** CPUs the container may use, e.g. 1.5. */
  cpus: z.number().positive().max(1024).optional(),
  memoryMb: z.int().min(16).max(1_048_576).optional(),
  pids: z.int().min(8).max(1_000_000).optional(),
});
export type ContainerLimits = z.infer<typeof ContainerLimits>;

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
}).refine((config) => config.default === 'local' || (config.default === 'docker' && config.docker.enabled), {
  path: ['default'], message: 'names a runner that is not enabled here',
});
export type RunnersConfig = z.infer<typeof RunnersConfig>;

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
