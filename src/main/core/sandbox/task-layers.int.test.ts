// A task's worktree layer on its own: mounted in a namespace of the desk's, reached by the desk through its holder,
// mounted again after its holder ended (a restart), removed whole; and refused, saying why, where it cannot be mounted.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTaskLayers } from './task-layers';
import { findNamespaceTools } from './state-namespace';

const tools = findNamespaceTools(process.env.PATH ?? '');
const roots: string[] = [];
afterEach(() => { for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true }); });

function place() {
  const root = mkdtempSync(join(tmpdir(), 'desk-task-layers-'));
  roots.push(root);
  const lower = join(root, 'snapshot');
  mkdirSync(lower);
  writeFileSync(join(lower, 'base.txt'), 'base\n');
  return { root, lower, dataDir: join(root, 'data'), target: join(root, 'worktrees', 'task') };
}

describe.skipIf(!tools)('a task layer', () => {
  it('shows the snapshot at the worktree path to the desk through its holder, and keeps what is written in its upper dir', async () => {
    const { lower, dataDir, target } = place();
    const released: string[] = [];
    const layers = createTaskLayers({ dataDir, tools, onRemoved: async (taskId) => { released.push(taskId); } });
    expect(await layers.refusal()).toBeUndefined();
    await layers.create({ taskId: 't', base: 'a'.repeat(40), lower, target, seed: { '.git': 'gitdir: /nowhere\n' } });
    const layer = await layers.open(target);
    if (!layer) throw new Error('no layer');
    expect(readFileSync(layer.deskPath(join(target, 'base.txt')), 'utf8')).toBe('base\n');
    writeFileSync(layer.deskPath(join(target, 'new.txt')), 'new\n');
    expect(readdirSync(layer.upperDir).sort()).toEqual(['.git', 'new.txt']);
    // The snapshot below is never written, and the desk's own view of the folder stays empty.
    expect(readdirSync(lower)).toEqual(['base.txt']);
    expect(readdirSync(target)).toEqual([]);
    expect(layers.reachOf(target)).toBeDefined();
    expect(() => layer.deskPath('/etc/passwd')).toThrow(/not in the task's worktree/);

    // The holder ends (the desk stopped): nothing stays mounted, and the next open mounts the same layer again.
    layer.namespace.close();
    await expect.poll(() => layer.namespace.alive()).toBe(false);
    const again = await layers.open(target);
    expect(again?.namespace.pid).not.toBe(layer.namespace.pid);
    expect(readFileSync(again?.deskPath(join(target, 'new.txt')) ?? '', 'utf8')).toBe('new\n');

    await layers.remove(target);
    expect(await layers.has(target)).toBe(false);
    expect(released).toEqual(['t']);
    expect(readdirSync(layers.dir)).toEqual([]);
    layers.close();
  });

  it('is refused, saying why, where the tools to mount it are missing', async () => {
    const { dataDir } = place();
    const layers = createTaskLayers({ dataDir, tools: undefined });
    expect(await layers.refusal()).toBe('unshare and nsenter (util-linux) are not on PATH');
  });

  it("is refused, with the holder's own words, where the overlay cannot be mounted", async () => {
    const { dataDir } = place();
    // A program that fails as a refused mount does: the holder's own error is what the desk reports.
    const layers = createTaskLayers({ dataDir, tools: { unshare: '/bin/false', nsenter: '/bin/false' } });
    expect(await layers.refusal()).toMatch(/ended with code 1/);
  });
});
