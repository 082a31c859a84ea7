// Whether a new task's worktree is a layer over a snapshot of its base or a checkout of its own (issue 41). A layer's
// start and commit cost a few fixed steps (a namespace, a mount, a snapshot's lease) where a checkout costs what the
// repository holds: on a small repository the checkout is the cheaper, on a large one, or one whose ignored folders
// (`copy`) or preparation (`prepare`) each task would otherwise pay for again, the layer is. Pure: the caller reads the facts.

/** `auto`: as the facts say; `always` / `never`: every worktree a layer / a checkout (a setting, tests). */
export type LayerMode = 'auto' | 'always' | 'never';

/** From this many tracked files on, a checkout costs more than a layer's fixed steps (bench/layers.ts). */
export const LAYER_MIN_FILES = 2000;

export interface LayerFacts {
  mode: LayerMode;
  /** Files the person's index lists (a stand-in for the base's), undefined when it could not be read. */
  trackedFiles: number | undefined;
  /** The repository's `copy` globs and `prepare` command (`.desk/config.json`). */
  copies: number;
  prepares: boolean;
}

export function wantsLayer(facts: LayerFacts): boolean {
  if (facts.mode !== 'auto') return facts.mode === 'always';
  return facts.copies > 0 || facts.prepares || (facts.trackedFiles ?? 0) >= LAYER_MIN_FILES;
}

/** The number of entries a git index file says it holds (its header: signature, version, count), or undefined. */
export function indexEntryCount(header: Buffer): number | undefined {
  if (header.length < 12 || header.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  return header.readUInt32BE(8);
}

/** What decides whether a task's runner can work in a layer of this machine. */
export interface RunnerLayerFacts {
  runner: 'local' | 'docker' | 'cluster';
  /** `local`: whether the desk's sandbox confines the agent (the layer is mounted where the sandbox is made). */
  confined: boolean;
  /** `docker`: the daemon's address as configured (`docker.host`, else `DOCKER_HOST`); undefined: the local socket. */
  dockerHost: string | undefined;
}

/**
 * Whether a task on `runner` may get a layer (then ./base-snapshots.ts decides whether it pays), and when not, what its
 * activity says, if anything. A docker daemon mounts the layer itself (../runners/docker/layer-volume.ts), from paths of
 * this machine: only a daemon on this machine's own socket can. The cluster has no disk of the desk's.
 */
export function runnerLayerChoice(facts: RunnerLayerFacts): { layer: true } | { layer: false; why?: string } {
  switch (facts.runner) {
    case 'local':
      return facts.confined ? { layer: true } : { layer: false };
    case 'docker': {
      const remote = remoteDockerHost(facts.dockerHost);
      return remote === undefined ? { layer: true } : {
        layer: false,
        why: `The worktree is a checkout of its own: the docker runner's daemon at ${remote} is not on this machine's socket, and a copy-on-write layer is made of paths of this machine.`,
      };
    }
    default:
      return { layer: false };
  }
}

/** The host when `host` names a daemon reached over a network (`tcp://`, `https://`, `ssh://`, …); undefined for a unix socket or none. */
export function remoteDockerHost(host: string | undefined): string | undefined {
  const named = host?.trim();
  if (named === undefined || named === '' || named.startsWith('unix://')) return undefined;
  return named;
}
