// What a task's swarm service is, decided once from the run and the configuration: one replica that is never
// restarted, the helper as its main process with the agent's command after `--`, the run's variables, no disk of
// this machine, the limits and the labels a restarted desk sweeps by. Pure.
import type Dockerode from 'dockerode';
import type { ContainerLimits } from '../../../../shared/runners';
import { containerEnv, labels } from '../docker/container-spec';

export interface ServiceRequest {
  deskId: string;
  taskId: string;
  image: string;
  /** The helper in the image and the Node that runs it. */
  helper: string;
  node: string;
  /** The agent's command and arguments, as on this machine. */
  command: string;
  args: readonly string[];
  /** The agent's own variables (its API key), without this machine's PATH and HOME. */
  env: Readonly<Record<string, string>>;
  /** What the helper needs: where the desk is, the run's token, where to clone, which branch. */
  run: { url: string; token: string; worktree: string; branch: string };
  network: string;
  limits: ContainerLimits;
  /** Paths every node has, read-only at the same place. */
  readOnly: readonly string[];
}

/** Docker's service names: letters, digits and dashes, at most 63; unique per run (a re-run gets a new one). */
export function serviceName(deskId: string, taskId: string, suffix: string): string {
  const task = taskId.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 32) || 'task';
  return `desk-${deskId.slice(0, 8)}-${task}-${suffix}`.slice(0, 63).replace(/-+$/, '');
}

/** The Engine API's service create body. */
export function serviceSpec(request: ServiceRequest, name: string) {
  return serviceBody(request, name) satisfies Dockerode.CreateServiceOptions;
}

function serviceBody(request: ServiceRequest, name: string) {
  const env = {
    ...containerEnv(request.env),
    DESK_RUNNER_URL: request.run.url,
    DESK_RUNNER_TOKEN: request.run.token,
    DESK_RUNNER_WORKTREE: request.run.worktree,
    DESK_RUNNER_BRANCH: request.run.branch,
  };
  const { limits } = request;
  return {
    Name: name,
    Labels: labels(request),
    TaskTemplate: {
      ContainerSpec: {
        Image: request.image,
        Command: [request.node],
        Args: [request.helper, '--', request.command, ...request.args],
        Env: Object.entries(env).map(([key, value]) => `${key}=${value}`),
        Labels: labels(request),
        Mounts: [
          // The clone, HOME and TMPDIR live here: nothing the agent writes outlives its container.
          // The Engine takes an empty source as none (a tmpfs has none); dockerode's types want the field.
          { Type: 'tmpfs' as const, Source: '', Target: '/tmp', TmpfsOptions: { SizeBytes: 4 * 1024 ** 3, Mode: 0o1777 } },
          ...request.readOnly.map((path) => ({ Type: 'bind' as const, Source: path, Target: path, ReadOnly: true })),
        ],
        CapabilityDrop: ['ALL'],
        // The helper reaps what the agent leaves, and signals reach it.
        Init: true,
      },
      Resources: {
        Limits: {
          ...(limits.cpus !== undefined && { NanoCPUs: Math.round(limits.cpus * 1e9) }),
          ...(limits.memoryMb !== undefined && { MemoryBytes: limits.memoryMb * 1024 * 1024 }),
          ...(limits.pids !== undefined && { Pids: limits.pids }),
        },
      },
      // A task's run is one attempt: the desk decides about re-runs, never the orchestrator.
      RestartPolicy: { Condition: 'none' as const, MaxAttempts: 0 },
      Networks: [{ Target: request.network }],
    },
    Mode: { Replicated: { Replicas: 1 } },
  };
}
