// A task's worktree layer on its own: mounted in a namespace of the desk's, reached by the desk through its holder,
// mounted again after its holder ended (a restart), removed whole; and refused, saying why, where it cannot be mounted.
import { execFileSync, spawnSync } from 'node:child_process';
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

  it("is lent to another mount with its holder's mount gone, read through the borrower meanwhile, and mounted again once given back", async () => {
    const { root, lower, dataDir, target } = place();
    const layers = createTaskLayers({ dataDir, tools });
    await layers.create({ taskId: 't', base: 'b'.repeat(40), lower, target, seed: { '.git': 'gitdir: /nowhere\n' } });
    const held = await layers.open(target);
    if (!held) throw new Error('no layer');
    expect(await layers.lend(join(root, 'not-a-layer'))).toBeUndefined();

    const lent = await layers.lend(target);
    if (!lent) throw new Error('not lent');
    // One overlay on an upper dir at a time: the holder is gone before the borrower mounts.
    expect(held.namespace.alive()).toBe(false);
    expect(lent).toMatchObject({ upperDir: held.upperDir, lower, workDir: join(held.upperDir, '..', 'lent-work') });
    await expect(layers.lend(target)).rejects.toThrow(/lent already/);
    // Until the borrower's mount can be reached, the desk's reads are refused saying why, never mounted a second time.
    await expect(layers.open(target)).rejects.toMatchObject({ code: 'layer_lent' });
    expect(layers.reachOf(target)).toBeUndefined();

    // The borrower's mount (here a plain folder standing in for it) is where the desk reads and writes meanwhile.
    const borrowed = join(root, 'borrowed');
    mkdirSync(borrowed);
    writeFileSync(join(borrowed, 'seen.txt'), 'through the borrower\n');
    lent.reachThrough((path) => join(borrowed, path.slice(target.length)));
    const view = await layers.open(target);
    expect(readFileSync(view?.deskPath(join(target, 'seen.txt')) ?? '', 'utf8')).toBe('through the borrower\n');
    expect(layers.reachOf(target)?.(join(target, 'seen.txt'))).toBe(join(borrowed, 'seen.txt'));
    expect(() => view?.namespace.enter('git', ['status'])).toThrow(/Docker containers until its turn ends/);

    // What the borrower's mount wrote is in the upper dir; given back, the holder mounts the layer again and shows it.
    writeFileSync(join(lent.upperDir, 'written.txt'), 'by the borrower\n');
    lent.giveBack();
    expect(view?.namespace.alive()).toBe(false);
    const again = await layers.open(target);
    expect(again?.namespace.pid).toBeGreaterThan(0);
    expect(readFileSync(again?.deskPath(join(target, 'written.txt')) ?? '', 'utf8')).toBe('by the borrower\n');
    expect(readFileSync(again?.deskPath(join(target, 'base.txt')) ?? '', 'utf8')).toBe('base\n');
    layers.close();
  });

  // A root daemon's work dir is what a desk that is not root cannot remove; a mount in its place is what root cannot.
  it.skipIf(process.getuid?.() !== 0)("is retired, and made again at its worktree path, when part of its folder cannot be removed", async () => {
    const { lower, dataDir, target } = place();
    const released: string[] = [];
    const layers = createTaskLayers({ dataDir, tools, onRemoved: async (taskId) => { released.push(taskId); } });
    await layers.create({ taskId: 't', base: 'c'.repeat(40), lower, target, seed: {} });
    const lent = await layers.lend(target);
    if (!lent) throw new Error('not lent');
    const stuck = join(lent.workDir, 'work');
    mkdirSync(stuck);
    execFileSync('mount', ['-t', 'tmpfs', 'tmpfs', stuck]);
    try {
      lent.giveBack();
      await layers.remove(target);
      expect(await layers.has(target)).toBe(false);
      expect(released).toEqual(['t']);
      const left = readdirSync(layers.dir);
      // Set aside for the start-up sweep's next try (clearRemoved), out of the new layer's way.
      expect(left).toEqual([expect.stringMatching(/^\.removing-[0-9a-f]{16}-/)]);
      await layers.create({ taskId: 't', base: 'c'.repeat(40), lower, target, seed: {} });
      expect(await layers.has(target)).toBe(true);
      execFileSync('umount', [join(layers.dir, left[0] as string, 'lent-work', 'work')]);
    } finally {
      spawnSync('umount', [stuck], { stdio: 'ignore' });
      layers.close();
    }
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
