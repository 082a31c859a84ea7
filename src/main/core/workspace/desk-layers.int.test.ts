// A desk's layers start work in the background (clearing what an earlier run left, probing whether layers mount here),
// and its spare processes wait from its start: a desk stopped right after it started, or refused at its start, waits
// for that work and ends those processes, so nothing is made again in a data dir removed after it, and nothing runs on.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startDesk } from '../test-support/desk-harness';

/** Longer than the probe of a layer takes to mount and remove its folders. */
const PROBE_TIME_MS = 300;

/** The spare shells (host/spare-processes.ts) this test process started that still run. */
function spareShells(): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).flatMap((name) => {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
      return parent === process.pid && state !== 'Z' && readFileSync(`/proc/${name}/cmdline`, 'latin1').includes('desk-spare') ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}

describe.skipIf(process.platform !== 'linux')('a desk stopped at once', () => {
  it('leaves nothing behind in its data dir once the person removes it', async () => {
    for (let round = 0; round < 3; round++) {
      const desk = await startDesk({ layers: 'auto' });
      await desk.close();
      rmSync(desk.root, { recursive: true, force: true });
      await sleep(PROBE_TIME_MS);
      expect(existsSync(desk.root), `round ${round}: ${desk.root} was made again after the desk stopped`).toBe(false);
    }
    await expect.poll(spareShells).toEqual([]);
  });

  it('ends its spare processes and its layers\' probe when the repository is refused at its start', async () => {
    const root = mkdtempSync(join(tmpdir(), 'desk-test-'));
    const repo = join(root, 'repo');
    mkdirSync(repo);
    execFileSync('git', ['init', '--quiet', repo]);
    try {
      await expect(startDesk({ reuse: { root, repo, dataDir: join(root, 'data') }, layers: 'auto' })).rejects.toMatchObject({ code: 'empty_repository' });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    await sleep(PROBE_TIME_MS);
    expect(existsSync(root), `${root} was made again after the desk was refused`).toBe(false);
    await expect.poll(spareShells).toEqual([]);
  });
});
