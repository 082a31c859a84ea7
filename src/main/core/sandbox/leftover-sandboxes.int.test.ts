// A desk killed while a sandbox was still setting up leaves that sandbox running with no one to end it (see
// ./leftover-sandboxes.ts). Planted here as the race leaves it: a bwrap of this data dir, re-parented to init, running
// a double-forked process that ignores TERM and HUP. The next desk on the data dir ends it, and nothing else.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destroyDesk, makeRepo, startDesk, type Desk } from '../test-support/desk-harness';
import { isolateGitConfig } from '../git/git-test-fixture';
import { processesWith, sandboxForTests } from './test-support/sandbox-for-tests';

const { skip } = await sandboxForTests();

/** Starts bwrap from a shell that exits at once, so the sandbox's parent is init, as after a desk was killed. */
function plantSandbox(bindFrom: string, marker: string, commandMentions = ''): void {
  mkdirSync(bindFrom, { recursive: true });
  const inner = `(setsid sh -c 'trap "" TERM HUP; while :; do sleep 1; done' ${marker} &); sleep 300 ${commandMentions}`;
  const bwrap = ['bwrap', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--bind', bindFrom, bindFrom, '--', 'sh', '-c', inner, marker];
  const quoted = bwrap.map((part) => `'${part.replaceAll("'", `'\\''`)}'`).join(' ');
  spawn('sh', ['-c', `${quoted} >/dev/null 2>&1 &`], { detached: true, stdio: 'ignore' }).unref();
}

async function until(probe: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(skip)(`sandboxes a killed desk left running${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let restoreGit: () => void;
  let root: string;
  let desk: (Desk & { root: string }) | undefined;
  const markers = { ours: `desk-leftover-${process.pid}`, otherDesk: `desk-other-${process.pid}`, onlyMentioned: `desk-mention-${process.pid}` };
  beforeAll(() => { restoreGit = isolateGitConfig(); });
  afterAll(async () => {
    for (const marker of Object.values(markers)) {
      for (const pid of processesWith(marker)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Ended with its sandbox's init, killed just before.
        }
      }
    }
    await destroyDesk(desk);
    // Without a desk (planting failed), the temp dir is still there.
    if (root) rmSync(root, { recursive: true, force: true });
    restoreGit();
  });

  it('are ended when the next desk on the data dir starts; another desk\'s sandbox and a command naming the folder are not', async () => {
    root = mkdtempSync(join(tmpdir(), 'desk-leftover-'));
    const repo = makeRepo(root);
    const dataDir = join(root, 'data');
    plantSandbox(join(dataDir, 'sb', '0a1b2c3d4e5f', 'tmp'), markers.ours);
    plantSandbox(join(root, 'other-data', 'sb', '0a1b2c3d4e5f', 'tmp'), markers.otherDesk);
    // Its own options bind elsewhere; only the command it runs names this data dir's sandbox folder.
    plantSandbox(join(root, 'elsewhere'), markers.onlyMentioned, join(dataDir, 'sb', 'f00d', 'tmp'));
    for (const marker of Object.values(markers)) await until(() => processesWith(marker).length >= 2, `the planted sandbox ${marker}`);
    const planted = processesWith(markers.ours);

    desk = await startDesk({ reuse: { root, repo, dataDir } });

    await until(() => processesWith(markers.ours).length === 0, 'the leftover sandbox to end').catch(() => undefined);
    expect(processesWith(markers.ours)).toEqual([]);
    expect(planted.length).toBeGreaterThanOrEqual(2);
    expect(processesWith(markers.otherDesk).length).toBeGreaterThanOrEqual(2);
    expect(processesWith(markers.onlyMentioned).length).toBeGreaterThanOrEqual(2);
  });
});
