// What a task's container is, decided once from the task and the configuration: its image, mounts, user,
// network, limits and labels; given to the Engine API (the agent) and to `docker run` (setup and terminals). Pure.
import type { ContainerLimits } from '../../../../shared/runners';

/** Labels that let a restarted desk find (and remove) every container it left behind, and only its own. */
export const DESK_LABEL = 'assignment-desk.desk';
export const TASK_LABEL = 'assignment-desk.task';

export interface ContainerRequest {
  deskId: string;
  taskId: string;
  image: string;
  /** The task's worktree, mounted read-write at the same path (so paths the agent and the desk name agree). */
  worktree: string;
  /** A named volume that is the worktree (a layer over a snapshot, ./layer-volume.ts), mounted there instead of the folder. */
  worktreeVolume?: string;
  /** The run's task git dir and the repository's objects, config and hooks read-only (container-git.ts). */
  gitBinds: readonly string[];
  /** More paths of this machine, read-only at the same place. */
  readOnly: readonly string[];
  /** `none` cuts the container off every network but its own loopback. */
  network: string;
  limits: ContainerLimits;
  /** Owner of what the agent writes, so the person's files stay theirs. */
  user: string;
  /**
   * The task's own home on this machine (copies of the agent's state, ../../sandbox/state-layers.ts), the container's
   * HOME at CONTAINER_HOME; without, HOME is the container's /tmp. Never the person's home or state dirs.
   */
  home?: string;
  env: Readonly<Record<string, string>>;
}

/** Each limit at the tighter of the two (the runner's configuration and the agent's policy). */
export function tighterLimits(a: ContainerLimits, b: ContainerLimits | undefined): ContainerLimits {
  const pick = (x: number | undefined, y: number | undefined) => (x === undefined ? y : y === undefined ? x : Math.min(x, y));
  const cpus = pick(a.cpus, b?.cpus);
  const memoryMb = pick(a.memoryMb, b?.memoryMb);
  const pids = pick(a.pids, b?.pids);
  return { ...(cpus !== undefined && { cpus }), ...(memoryMb !== undefined && { memoryMb }), ...(pids !== undefined && { pids }) };
}

/** Where the task's own home is in its containers. */
export const CONTAINER_HOME = '/desk-home';

/** Variables of the desk's machine that would mislead a program in another root file system. */
const HOST_ONLY_ENV = new Set(['PATH', 'HOME', 'TMPDIR', 'TMP', 'TEMP', 'PWD', 'OLDPWD', 'SHELL', 'USER', 'LOGNAME']);

export function containerEnv(env: Readonly<Record<string, string>>, home?: string): Record<string, string> {
  const kept = Object.fromEntries(Object.entries(env).filter(([name]) => !HOST_ONLY_ENV.has(name)));
  // The worktree's user has no home in the image: the task's own, or /tmp (a tmpfs), stands in.
  return { ...kept, HOME: home === undefined ? '/tmp' : CONTAINER_HOME, TMPDIR: '/tmp' };
}

export function binds(request: ContainerRequest): string[] {
  return [
    `${request.worktreeVolume ?? request.worktree}:${request.worktree}:rw`,
    ...request.gitBinds,
    ...request.readOnly.map((path) => `${path}:${path}:ro`),
    ...(request.home === undefined ? [] : [`${request.home}:${CONTAINER_HOME}:rw`]),
  ];
}

export function labels(request: Pick<ContainerRequest, 'deskId' | 'taskId'>): Record<string, string> {
  return { [DESK_LABEL]: request.deskId, [TASK_LABEL]: request.taskId };
}

/** The Engine API's create body for the agent's container: the agent is its main process, on stdin/stdout. */
export function createOptions(request: ContainerRequest, command: string, args: readonly string[], cwd: string) {
  const env = containerEnv(request.env, request.home);
  return {
    Image: request.image,
    Entrypoint: [command],
    Cmd: [...args],
    WorkingDir: cwd,
    User: request.user,
    Env: Object.entries(env).map(([name, value]) => `${name}=${value}`),
    Labels: labels(request),
    OpenStdin: true,
    StdinOnce: true,
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
    HostConfig: {
      Binds: binds(request),
      NetworkMode: request.network,
      Tmpfs: { '/tmp': 'rw,exec,nosuid,size=1g' },
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      // The daemon removes it when the agent exits; the desk removes it on cancel; a restarted desk sweeps the rest.
      AutoRemove: true,
      ...(request.limits.cpus !== undefined && { NanoCpus: Math.round(request.limits.cpus * 1e9) }),
      ...(request.limits.memoryMb !== undefined && { Memory: request.limits.memoryMb * 1024 * 1024 }),
      ...(request.limits.pids !== undefined && { PidsLimit: request.limits.pids }),
    },
  };
}

/**
 * `docker run` arguments for a command beside the agent (the repository's setup, a terminal): a container of
 * its own with the same image, mounts, user, network and limits. Variables are named, not valued, so their
 * values come from the environment the desk gives the `docker` program and never show in a process list.
 */
export function runArguments(request: ContainerRequest, command: string, args: readonly string[], options: { cwd: string; terminal?: boolean }): string[] {
  const named = Object.keys(containerEnv(request.env)).filter((name) => name !== 'HOME' && name !== 'TMPDIR');
  const home = containerEnv({}, request.home).HOME ?? '/tmp';
  return [
    'run', '--rm', '-i', ...(options.terminal ? ['-t'] : []),
    '--workdir', options.cwd, '--user', request.user, '--network', request.network,
    '--tmpfs', '/tmp:rw,exec,nosuid,size=1g', '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges',
    ...Object.entries(labels(request)).flatMap(([name, value]) => ['--label', `${name}=${value}`]),
    ...binds(request).flatMap((bind) => ['--volume', bind]),
    ...(request.limits.cpus !== undefined ? ['--cpus', String(request.limits.cpus)] : []),
    ...(request.limits.memoryMb !== undefined ? ['--memory', `${request.limits.memoryMb}m`] : []),
    ...(request.limits.pids !== undefined ? ['--pids-limit', String(request.limits.pids)] : []),
    ...named.flatMap((name) => ['--env', name]), '--env', `HOME=${home}`, '--env', 'TMPDIR=/tmp',
    '--entrypoint', command, request.image, ...args,
  ];
}
