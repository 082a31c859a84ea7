// A task layer lent to the daemon on its own (src/main/core/runners/docker/layer-volume.ts), against the daemon
// docker-daemon.ts starts: the desk reads and writes through the keeper while the daemon holds the mount, the holder
// shows the same files once the layer is given back, and what the daemon's mount leaves in its work dir (root's: a desk
// that is not root cannot remove it) is emptied by the daemon when asked.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { openLayerVolume } from '../../src/main/core/runners/docker/layer-volume';
import { findNamespaceTools } from '../../src/main/core/sandbox/state-namespace';
import { createTaskLayers } from '../../src/main/core/sandbox/task-layers';

const host = inject('dockerHost');
const image = inject('dockerImage');
const skipReason = inject('dockerSkip');
const tools = findNamespaceTools(process.env.PATH ?? '');
const roots: string[] = [];
afterEach(() => { for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true }); });

async function lentLayer(taskId: string) {
  const root = mkdtempSync(join(tmpdir(), 'desk-layer-volume-'));
  roots.push(root);
  const lower = join(root, 'snapshot');
  mkdirSync(lower);
  writeFileSync(join(lower, 'base.txt'), 'base\n');
  writeFileSync(join(lower, 'gone.txt'), 'gone\n');
  const layers = createTaskLayers({ dataDir: join(root, 'data'), tools });
  const target = join(root, 'worktrees', taskId);
  await layers.create({ taskId, base: 'd'.repeat(40), lower, target, seed: { '.git': 'gitdir: /nowhere\n' } });
  return { layers, target, lentWork: join(layers.dir, readdirSync(layers.dir)[0] as string, 'lent-work', 'work') };
}

if (!host || !tools) describe.skip(`a layer lent to the Docker daemon (skipped: ${skipReason || 'unshare and nsenter are not on PATH'})`, () => { it('needs Docker', () => {}); });
else describe('a layer lent to the Docker daemon', () => {
  let docker: Docker;
  beforeAll(() => { docker = new Docker({ socketPath: new URL(host).pathname }); });
  const request = (taskId: string, worktree: string) => ({ deskId: 'specdesk', taskId, image, worktree, user: `${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}` });

  it("is read and written through the keeper while the daemon holds it, and the holder shows the same files once it is given back", async () => {
    const { layers, target, lentWork } = await lentLayer('through');
    const volume = await openLayerVolume(docker, layers, request('through', target), { emptyWorkDir: false });
    if (!volume) throw new Error('no volume');
    expect(readFileSync(volume.reach(join(target, 'base.txt')), 'utf8')).toBe('base\n');
    writeFileSync(volume.reach(join(target, 'new.txt')), 'new\n');
    rmSync(volume.reach(join(target, 'gone.txt')));
    expect((await layers.open(target))?.deskPath(join(target, 'new.txt'))).toBe(volume.reach(join(target, 'new.txt')));
    await volume.close();
    expect(() => volume.reach(join(target, 'new.txt'))).toThrow(/out of the desk's reach/);
    expect((await docker.listVolumes({ filters: { label: ['assignment-desk.desk=specdesk'] } })).Volumes ?? []).toEqual([]);

    const held = await layers.open(target);
    expect(held?.namespace.pid).toBeGreaterThan(0);
    expect(readFileSync(held?.deskPath(join(target, 'new.txt')) ?? '', 'utf8')).toBe('new\n');
    expect(existsSync(held?.deskPath(join(target, 'gone.txt')) ?? '')).toBe(false);
    // The daemon's deletion left its shared whiteout in its work dir: root's, where a root daemon mounts.
    expect(readdirSync(lentWork)).toEqual([expect.stringMatching(/^#/)]);
    layers.close();
  });

  it('has its work dir emptied by the daemon when the desk asks, so a desk that is not root can remove it', async () => {
    const { layers, target, lentWork } = await lentLayer('emptied');
    const volume = await openLayerVolume(docker, layers, request('emptied', target), { emptyWorkDir: true });
    if (!volume) throw new Error('no volume');
    rmSync(volume.reach(join(target, 'gone.txt')));
    await volume.close();
    expect(readdirSync(lentWork)).toEqual([]);
    expect((await docker.listVolumes({ filters: { label: ['assignment-desk.desk=specdesk'] } })).Volumes ?? []).toEqual([]);
    expect((await docker.listContainers({ all: true, filters: { label: ['assignment-desk.desk=specdesk'] } }))).toEqual([]);
    const held = await layers.open(target);
    expect(existsSync(held?.deskPath(join(target, 'gone.txt')) ?? '')).toBe(false);
    layers.close();
  });
});
