// The containers a docker run leaves when it ends (a terminal's `docker run` outliving its `docker` program): found
// by the run's dir they mount and removed before the desk takes the agent's commits; other runs' are left alone.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { DESK_LABEL } from '../../src/main/core/runners/docker/container-spec';
import { removeRunContainers } from '../../src/main/core/runners/docker/run-containers';
import { nodePaths } from './test-image';

const host = inject('dockerHost');
const image = inject('dockerImage');
const skipReason = inject('dockerSkip');

if (!host) describe.skip(`a run's leftover containers (skipped: ${skipReason})`, () => { it('needs Docker', () => {}); });
else describe("a run's leftover containers", () => {
  const root = mkdtempSync(join(tmpdir(), 'desk-run-containers-'));
  const docker = new Docker({ socketPath: new URL(host).pathname });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** A running container of desk `deskId` that mounts `source`, as a terminal of a run would. */
  async function startMounting(deskId: string, source: string): Promise<string> {
    mkdirSync(source, { recursive: true });
    const container = await docker.createContainer({
      Image: image, Entrypoint: [process.execPath], Cmd: ['-e', 'setInterval(() => {}, 1000)'], Labels: { [DESK_LABEL]: deskId },
      HostConfig: { NetworkMode: 'none', AutoRemove: true, Binds: [`${source}:${source}:rw`, ...nodePaths().map((path) => `${path}:${path}:ro`)] },
    });
    await container.start();
    return container.id;
  }

  const running = async () => (await docker.listContainers()).map((info) => info.Id);

  it("removes the desk's containers that mount the run's dir, and leaves another run's and another desk's running", async () => {
    const ofRun = await startMounting('desk-a', join(root, 'run-1', 'git'));
    const otherRun = await startMounting('desk-a', join(root, 'run-2', 'git'));
    const otherDesk = await startMounting('desk-b', join(root, 'run-1', 'tmp'));
    try {
      await removeRunContainers(docker, `${DESK_LABEL}=desk-a`, join(root, 'run-1'));
      const left = await running();
      expect(left).not.toContain(ofRun);
      expect(left).toContain(otherRun);
      expect(left).toContain(otherDesk);
    } finally {
      await Promise.all([ofRun, otherRun, otherDesk].map((id) => docker.getContainer(id).remove({ force: true }).catch(() => undefined)));
    }
  });
});
