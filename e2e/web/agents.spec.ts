// Settings' agents in a real browser against `npm run serve`: an agent installed from a local npm tarball (npm kept
// offline, its registry a closed port), then tested; and how Settings reads, light and dark.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolateGitConfig } from '../../src/main/core/git/git-test-fixture';
import { FIXTURE_AGENT_INFO, packFixtureAgent } from '../../src/main/core/agents/test-support/fixture-acp-agent';
import { browserUnavailable, keepScreenshot, launchBrowser } from './support/browser';
import { serveDesk, type ServedDesk } from './support/desk-server';

const unavailable = browserUnavailable();
let browser: Browser;
let desk: ServedDesk | undefined;
let page: Page | undefined;
let restoreGit: () => void;
const dir = mkdtempSync(join(tmpdir(), 'desk-e2e-agent-'));

describe.skipIf(unavailable !== undefined)(`agents in Settings${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  beforeAll(async () => {
    restoreGit = isolateGitConfig();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await page?.close();
    await desk?.stop();
    await browser?.close();
    restoreGit();
    rmSync(dir, { recursive: true, force: true });
  });

  it('installs an agent from a local npm tarball with a progress bar, ends installed, and Test shows its name and version', async () => {
    const tarball = packFixtureAgent(dir, 'fixture-acp');
    desk = await serveDesk({
      // The catalog entry's package is the tarball: Install needs no source typed in.
      agentsConfig: { agents: [{ id: 'fixture', name: 'Fixture agent', command: 'fixture-acp', dialect: 'acp', npmPackage: tarball }] },
      env: { npm_config_registry: 'http://127.0.0.1:9/', npm_config_offline: 'true' },
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(15_000);
    await page.goto(desk.boardUrl);
    await page.getByRole('button', { name: 'Settings' }).click();

    const row = page.getByRole('listitem', { name: 'Agent Fixture agent' });
    await expect.poll(() => row.textContent()).toContain('Not installed');
    await row.getByRole('button', { name: 'Install' }).click();
    await row.getByRole('progressbar', { name: 'Installing Fixture agent' }).waitFor();
    await expect.poll(() => row.textContent(), { timeout: 60_000 }).toContain('Installed');
    expect(await row.getByRole('progressbar').count()).toBe(0);
    expect(await row.getByLabel('Install log of Fixture agent').textContent()).toContain('npm install --prefix');

    await row.getByRole('button', { name: 'Test' }).click();
    await row.getByText('Ready', { exact: true }).waitFor({ timeout: 30_000 });
    await row.getByText(`${FIXTURE_AGENT_INFO.title} ${FIXTURE_AGENT_INFO.version} started a session`, { exact: true }).waitFor();

    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.getByRole('group', { name: 'Agents' }).scrollIntoViewIfNeeded();
      await keepScreenshot(page, `settings-agents-${colorScheme}`);
    }
  });
});
