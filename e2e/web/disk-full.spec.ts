// The board while the desk's disk is full, for real: the data dir is a small tmpfs the spec fills, an agent's output
// finds no room, and the board says so (what, where, what to free) until space is freed, then the notice goes by
// itself. Needs root (mount); CI runs it (DESK_REQUIRE_SANDBOX=1).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolateGitConfig } from '../../src/main/core/git/git-test-fixture';
import { fillUp, mountSmallFileSystem, unmountSmallFileSystem } from '../../src/main/core/test-support/small-file-system';
import { browserUnavailable, keepScreenshot, launchBrowser } from './support/browser';
import { serveDesk, type ServedDesk } from './support/desk-server';

const unavailable = browserUnavailable();
const small = unavailable ? { skip: unavailable } : mountSmallFileSystem();
const skip = small.skip;

describe.skipIf(skip)(`the board when the disk is full${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const dataDir = small.dir as string;
  let browser: Browser;
  let desk: ServedDesk | undefined;
  let page: Page | undefined;
  let restoreGit: () => void = () => {};

  beforeAll(async () => {
    restoreGit = isolateGitConfig();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
    unmountSmallFileSystem(dataDir);
    restoreGit();
  });

  // A desk start and a sandboxed agent's run on a near-full disk, on a shared 2-core machine: more than the default 30 s.
  it('shows a banner naming the full data dir while the desk cannot write, and drops it once space is freed', async () => {
    desk = await serveDesk({ dataDir });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(12_000);
    await page.goto(desk.boardUrl);
    await page.getByRole('region', { name: 'Queued' }).waitFor();
    const banner = page.getByRole('alert', { name: 'Disk full' });
    expect(await banner.count()).toBe(0);

    // About 1 MiB left, and the agent says 3 MiB: the desk's own writes of its output find no room.
    writeFileSync(join(dataDir, 'room.bin'), Buffer.alloc(1024 * 1024));
    const filler = fillUp(join(dataDir, 'filler.bin'));
    rmSync(join(dataDir, 'room.bin'));
    expect((await desk.api('POST', '/', { id: 'talker', prompt: 'spew 3m 4k\nsay done talking' })).status).toBe(202);

    await banner.waitFor({ timeout: 60_000 });
    const said = await banner.textContent();
    expect(said).toContain('Disk full: ');
    expect(said).toContain(dataDir);
    expect(said).toContain('Free space there');
    await keepScreenshot(page, 'disk-full-banner');

    rmSync(filler);
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    expect((await desk.api('GET', '/api/settings')).json.diskFull).toBeUndefined();
  }, 150_000);
});
