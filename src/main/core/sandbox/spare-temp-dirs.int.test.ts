// Temp dirs made ahead, as a run takes them: an empty private folder named by the run id it gives, made again after
// each take, never one that is gone, and none left once closed. Real folders in a temp dir.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSpareTempDirs, type SpareTempDir, type SpareTempDirs } from './spare-temp-dirs';

const roots: string[] = [];
const opened: SpareTempDirs[] = [];
afterEach(() => {
  for (const spares of opened.splice(0)) spares.close();
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function spareTempDirs(): { root: string; spares: SpareTempDirs } {
  const root = mkdtempSync(join(tmpdir(), 'spare-temp-'));
  roots.push(root);
  const spares = createSpareTempDirs(join(root, 'sb'), { refillDelayMs: 0 });
  opened.push(spares);
  return { root: join(root, 'sb'), spares };
}

/** Takes one once it is made (the first is made after the first take). */
async function takeWhenReady(spares: SpareTempDirs): Promise<SpareTempDir> {
  for (let tries = 0; tries < 200; tries++) {
    const taken = spares.take();
    if (taken) return taken;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('no temp dir was made ahead');
}

describe('spare temp dirs', () => {
  it('give an empty private folder named by its run id, and make the next one after each take', async () => {
    const { root, spares } = spareTempDirs();
    expect(spares.take()).toBeUndefined();
    const first = await takeWhenReady(spares);
    expect(first.id).toMatch(/^[0-9a-f]{12}$/);
    expect(first.path).toBe(join(root, first.id));
    expect(readdirSync(first.path)).toEqual([]);
    expect(statSync(first.path).mode & 0o777).toBe(0o700);
    // Taken: never given twice; the next is another folder.
    const second = await takeWhenReady(spares);
    expect(second.id).not.toBe(first.id);
    expect(readdirSync(root).sort()).toEqual([first.id, second.id].sort());
  });

  it('never give one that was removed after it was made (a sweep of the root)', async () => {
    const { root, spares } = spareTempDirs();
    await takeWhenReady(spares);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readdirSync(root)).toHaveLength(2);
    rmSync(root, { recursive: true, force: true });
    expect(spares.take()).toBeUndefined();
    const next = await takeWhenReady(spares);
    expect(existsSync(next.path)).toBe(true);
  });

  it('leave nothing once closed, not even one still being made', async () => {
    const { root, spares } = spareTempDirs();
    const taken = await takeWhenReady(spares);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readdirSync(root)).toHaveLength(2);
    spares.close();
    expect(readdirSync(root)).toEqual([taken.id]);
    expect(spares.take()).toBeUndefined();

    const other = spareTempDirs();
    other.spares.take();
    // Closed while its first folder is being made: removed once made.
    await new Promise((resolve) => setImmediate(resolve));
    other.spares.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(other.root) ? readdirSync(other.root) : []).toEqual([]);
  });
});
