// The containers one run still has when it ends: its terminals and setup commands run through `docker run`, whose
// containers can outlive the `docker` program that started them. Found by the run's own dir, which they all mount.
import type { DockerClient } from './docker-client';

/** Removes every container with `deskLabel` (`name=value`) that mounts something below `runRoot`; waits for the daemon. */
export async function removeRunContainers(docker: DockerClient, deskLabel: string, runRoot: string): Promise<void> {
  const mine = await docker.listContainers({ all: true, filters: { label: [deskLabel] } }).catch(() => []);
  const ofRun = mine.filter((info) => (info.Mounts ?? []).some((mount) => mount.Source.startsWith(`${runRoot}/`)));
  await Promise.all(ofRun.map((info) => docker.getContainer(info.Id).remove({ force: true }).catch(() => undefined)));
}
