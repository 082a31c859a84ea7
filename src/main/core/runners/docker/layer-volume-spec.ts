// What a local Docker daemon is given to show a task's layer (../../sandbox/task-layers.ts) in its containers: one
// named overlay volume per desk and task, mounted by the daemon itself (the holder's mount lives in a namespace no
// container can bind from), and a keeper container that holds it mounted for the whole run, through whose root the desk
// reaches the files meanwhile. Pure.
import { createHash } from 'node:crypto';
import type { ContainerRequest } from './container-spec';
import { DESK_LABEL, labels } from './container-spec';

/** Marks the volume and its keeper among a desk's labelled objects. */
export const ROLE_LABEL = 'assignment-desk.role';

/** One name per desk and task: a task's runs reuse it, a restarted desk's sweep finds it by its labels. */
export function layerVolumeName(deskId: string, taskId: string): string {
  return `assignment-desk-${deskId.replace(/[^a-zA-Z0-9]/g, '')}-layer-${createHash('sha256').update(taskId).digest('hex').slice(0, 16)}`;
}

export interface LayerVolumeFacts {
  deskId: string;
  taskId: string;
  /** The snapshot's checkout (read-only), the task's upper dir, and a work dir of the daemon's own beside it. */
  lower: string;
  upper: string;
  work: string;
}

/**
 * The Engine API's body for the volume: the local driver's overlay, with `userxattr` so that what it writes (opaque
 * directories) reads the same to the desk's holder, which mounts in a user namespace, after the run.
 */
export function layerVolumeOptions(facts: LayerVolumeFacts) {
  for (const path of [facts.lower, facts.upper, facts.work]) {
    // The mount's options are one comma-separated string, with `:` between lower dirs.
    if (/[,:\\]/.test(path)) throw new Error(`The path ${path} holds a comma, colon or backslash, which an overlay's mount options cannot carry`);
  }
  return {
    Name: layerVolumeName(facts.deskId, facts.taskId),
    Driver: 'local',
    DriverOpts: { type: 'overlay', device: 'overlay', o: `lowerdir=${facts.lower},upperdir=${facts.upper},workdir=${facts.work},userxattr` },
    Labels: { ...labels(facts), [ROLE_LABEL]: 'layer' },
  };
}

/**
 * The keeper: a container of the task's image that mounts the volume at the worktree's path and waits on a stdin that
 * never closes, with nothing else: no network, no capabilities, a few processes. The daemon keeps a named volume mounted
 * while a container uses it, so setup, the agent, its terminals and the check share one mount, and the desk reads and
 * writes the worktree at `/proc/<keeper's pid>/root/<worktree>`.
 */
export function keeperOptions(request: Pick<ContainerRequest, 'deskId' | 'taskId' | 'image' | 'worktree' | 'user'>, volume: string) {
  return {
    Image: request.image,
    Entrypoint: ['sh'],
    Cmd: ['-c', 'read _ || :'],
    WorkingDir: '/',
    User: request.user,
    Labels: { ...labels(request), [ROLE_LABEL]: 'keeper' },
    OpenStdin: true,
    StdinOnce: false,
    Tty: false,
    HostConfig: {
      Binds: [`${volume}:${request.worktree}:rw`],
      NetworkMode: 'none',
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      PidsLimit: 8,
      Memory: 32 * 1024 * 1024,
      AutoRemove: false,
    },
  };
}

/** The filter that finds every volume a desk left. */
export function deskVolumeFilter(deskId: string): { label: string[] } {
  return { label: [`${DESK_LABEL}=${deskId}`, `${ROLE_LABEL}=layer`] };
}
