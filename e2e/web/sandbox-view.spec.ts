// Settings' "What agents see" in a real browser against `npm run serve`: the agent's sandbox as the desk lays it out,
// with the policy's hiddenPaths and readablePaths, for a home of the spec's own.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isolateGitConfig } from '../../src/main/core/git/git-test-fixture';
import { browserUnavailable, keepScreenshot, launchBrowser } from './support/browser';
import { serveDesk, type ServedDesk } from './support/desk-server';

const unavailable = browserUnavailable();
let browser: Browser;
let desk: ServedDesk | undefined;
let page: Page | undefined;
let home: string;
let restoreGit: () => void;

describe.skipIf(unavailable !== undefined)(`what agents see, in Settings${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  beforeAll(async () => {
    restoreGit = isolateGitConfig();
    home = mkdtempSync(join(tmpdir(), 'desk-e2e-home-'));
    mkdirSync(join(home, '.nvm', 'private'), { recursive: true });
    mkdirSync(join(home, 'notes'));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(home, { recursive: true, force: true });
    restoreGit();
  });
  afterEach(async (context) => {
    if (page) await keepScreenshot(page, context.task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase());
    await page?.close();
    await desk?.stop();
  });

  it('lists what the agent reads, writes and cannot see, and why, the policy\'s hidden and readable paths included', async () => {
    desk = await serveDesk({ env: { HOME: home }, policy: { version: 1, defaults: { hiddenPaths: ['~/.nvm/private'], readablePaths: ['~/notes'] } } });
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.setDefaultTimeout(12_000);
    await page.goto(desk.boardUrl);
    await page.getByRole('button', { name: 'Settings' }).click();
    const section = page.getByRole('group', { name: 'What agents see' });
    await section.waitFor();
    const { sandbox } = (await desk.api('GET', '/api/settings')).json;
    if (!sandbox.available) {
      await expect.poll(() => section.textContent()).toContain('Unsandboxed');
      return;
    }
    const table = section.getByRole('table', { name: 'What scripted sees' });
    await table.waitFor();
    const row = (path: string) => table.getByRole('row').filter({ has: page!.getByText(path, { exact: true }) });
    expect(await row(home).textContent()).toContain('hidden');
    expect(await row(join(home, '.nvm')).textContent()).toContain('readable');
    expect(await row(join(home, '.nvm', 'private')).textContent()).toMatch(/hidden.*hiddenPaths/);
    expect(await row(join(home, 'notes')).textContent()).toMatch(/readable.*readablePaths/);
    expect(await row('/tmp').textContent()).toMatch(/writable.*temp dir/);
    await row(home).scrollIntoViewIfNeeded();
  });
});
