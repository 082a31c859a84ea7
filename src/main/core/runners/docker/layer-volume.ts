// A task's layer in its containers on a local Docker daemon: the desk's holder lends the layer (its mount goes), the
// daemon mounts it as a named overlay volume, a keeper container holds that mount for the run and is the desk's way to
// the files meanwhile; at the end the keeper and the volume go and the layer is given back (the holder mounts it again
// when the desk next needs it, e.g. for the turn's commit). One overlay on an upper dir at a time, always.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TaskLayers } from '../../sandbox/task-layers';
import type { ContainerRequest } from './container-spec';
import type { DockerClient } from './docker-client';
import { deskVolumeFilter, keeperOptions, layerVolumeOptions } from './layer-volume-spec';

export interface LayerVolume {
  /** The volume's name, mounted at the worktree's path instead of the worktree's folder. */
  readonly name: string;
  /** Where the desk reaches a path of the worktree while the run lasts: through the keeper's root. */
  reach(path: string): string;
  /** After every other container of the run is gone: removes the keeper and the volume, and gives the layer back. */
  close(): Promise<void>;
}

/** How long a volume whose last container was just removed may stay in use before its removal counts as failed. */
const VOLUME_RELEASE_LIMIT_MS = 5000;

/** The layered worktree at `request.worktree` as a volume of the daemon, or undefined when that worktree is no layer. */
export async function openLayerVolume(
  docker: DockerClient,
  layers: Pick<TaskLayers, 'lend'>,
  request: Pick<ContainerRequest, 'deskId' | 'taskId' | 'image' | 'worktree' | 'user'>,
  options: { emptyWorkDir: boolean },
): Promise<LayerVolume | undefined> {
  const lent = await layers.lend(request.worktree);
  if (!lent) return undefined;
  const volume = layerVolumeOptions({ deskId: request.deskId, taskId: request.taskId, lower: lent.lower, upper: lent.upperDir, work: lent.workDir });
  let keeper: ReturnType<DockerClient['getContainer']> | undefined;
  const close = async () => {
    lent.reachThrough(undefined);
    await keeper?.remove({ force: true }).catch((error: { statusCode?: number }) => { if (error.statusCode !== 404) throw error; });
    await removeVolume(docker, volume.Name);
    // Should it fail (an image without sh), the layer's removal moves its folder aside instead (../../sandbox/task-layers.ts).
    if (options.emptyWorkDir) await emptyWorkDir(docker, volume, request).catch(() => undefined);
    lent.giveBack();
  };
  try {
    // A volume of an earlier run that a killed desk left (with its mount's options) is replaced, never reused.
    await removeVolume(docker, volume.Name);
    await docker.createVolume(volume);
    keeper = await docker.createContainer(keeperOptions(request, volume.Name));
    await keeper.start();
    const pid = ((await keeper.inspect()) as { State?: { Pid?: number } }).State?.Pid ?? 0;
    let kept = true;
    const reach = (path: string) => {
      if (!kept) throw new Error(`The task's files at ${request.worktree} are out of the desk's reach: the container that held them mounted has ended.`);
      return `/proc/${pid}/root${path}`;
    };
    // The keeper's processes must be this machine's: a daemon in another process namespace is no local one.
    if (pid <= 0 || !existsSync(reach(join(request.worktree, '.git')))) {
      throw new Error(`the desk cannot reach the worktree in the Docker daemon's containers (keeper process ${pid}): is the daemon on this machine, in this process namespace?`);
    }
    lent.reachThrough(reach);
    // A keeper that ends before the run does (killed from outside) leaves no way in: its process id may be another's soon.
    const ended = () => { kept = false; lent.reachThrough(undefined); };
    void keeper.wait().then(ended, ended);
    return { name: volume.Name, reach, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw new Error(`The task's worktree is a copy-on-write layer, which the Docker daemon could not mount for its containers: ${(error as Error).message}. Its committed work stays on its branch; "Layered worktrees on docker" in docs/runners.md says what the daemon and the image need.`);
  }
}

/**
 * What a root daemon's mount leaves in its work dir (`work/`, mode 000, and the shared whiteout in it, all root's) a desk
 * that is not root cannot remove. A new mount empties `work/`: the volume is mounted once more, by a container that does
 * nothing, and removed; the empty `work/` is then the desk's to remove with the layer (its parent is the desk's).
 */
async function emptyWorkDir(docker: DockerClient, volume: ReturnType<typeof layerVolumeOptions>, request: Parameters<typeof keeperOptions>[0]): Promise<void> {
  await docker.createVolume(volume);
  const once = await docker.createContainer({ ...keeperOptions(request, volume.Name), Cmd: ['-c', ':'], OpenStdin: false });
  try {
    await once.start();
    await once.wait();
  } finally {
    await once.remove({ force: true }).catch(() => undefined);
    await removeVolume(docker, volume.Name);
  }
}

/** Removes the named volume if it exists, waiting a moment for the daemon to let go of a mount just released. */
async function removeVolume(docker: DockerClient, name: string): Promise<void> {
  for (const started = Date.now(); ;) {
    try {
      await docker.getVolume(name).remove();
      return;
    } catch (error) {
      const { statusCode } = error as { statusCode?: number };
      if (statusCode === 404) return;
      if (statusCode !== 409 || Date.now() - started > VOLUME_RELEASE_LIMIT_MS) {
        throw new Error(`The Docker volume ${name}, which holds the task's files mounted, could not be removed (${(error as Error).message}); the desk's next start removes it.`);
      }
      await new Promise((resolve) => { setTimeout(resolve, 100); });
    }
  }
}

/** The volumes a stopped desk left (their containers removed first): removed, so every layer is the holder's to mount. */
export async function removeLeftoverVolumes(docker: DockerClient, deskId: string): Promise<void> {
  const { Volumes } = await docker.listVolumes({ filters: deskVolumeFilter(deskId) });
  await Promise.all((Volumes ?? []).map((volume) => removeVolume(docker, volume.Name).catch(() => undefined)));
}
