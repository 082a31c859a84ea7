// Settings' agents in a real browser against `npm run serve`: an agent installed from a local npm tarball (npm kept
// offline, its registry a closed port), then tested; and how Settings reads, light and dark.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolateGitConfig } from '../../src/main/core/git/git-test-fixture';
import { FIXTURE_AGENT_INFO, packFixtureAgent, writeFixtureAgent } from '../../src/main/core/agents/test-support/fixture-acp-agent';
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
      await page.getByRole('group', { name: 'Agents', exact: true }).scrollIntoViewIfNeeded();
      await keepScreenshot(page, `settings-agents-${colorScheme}`);
    }
  });

  it('shows a login the agent wants with what works for each method, and a silent turn with Cancel at hand', async () => {
    await page?.close();
    await desk?.stop();
    const script = writeFixtureAgent(dir);
    desk = await serveDesk({
      agentsConfig: { agents: [{ id: 'needs-login', name: 'Needs login', command: process.execPath, args: [script, '--mode=auth'], dialect: 'acp' }] },
      // The fixture agent lives in a temp dir the sandbox does not show; this test is about what the board says.
      policy: { version: 1, agents: { 'needs-login': { sandbox: 'off' } } },
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(15_000);
    await page.goto(desk.boardUrl);
    await desk.api('PUT', '/api/settings', { quietAfterSeconds: 1 });
    await desk.api('POST', '/', { id: 'quiet', prompt: 'Think it over\nsleep 8000' });
    const card = page.getByRole('article', { name: 'Task quiet', exact: true });
    await card.getByText(/No word from the agent for \ds/).waitFor();
    await card.getByRole('button', { name: 'Cancel task quiet' }).waitFor();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await keepScreenshot(page, `quiet-card-${colorScheme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });

    await desk.api('POST', '/', { id: 'login', prompt: 'Fix it', agent: 'needs-login' });
    await page.getByRole('article', { name: 'Task login', exact: true }).click();
    const help = page.getByRole('region', { name: 'Needs login needs a login' });
    await help.waitFor();
    expect(await help.textContent()).toContain('POST /api/agents/needs-login/login {"methodId": "fixture-login"}');
    expect(await help.textContent()).toContain('set FIXTURE_API_KEY in the environment the desk starts in');
    expect(await help.textContent()).not.toContain('<id>');
    await help.getByRole('button', { name: 'Open Settings to log in' }).waitFor();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await keepScreenshot(page, `login-help-${colorScheme}`);
    }
  });
});
