// Pull requests from the board in a real browser against `serve`, with the GitHub stand-in as GITHUB_API_URL and a
// bare repository as origin's push URL: the button, the link, the merged state and the one-click archive.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { git, isolateGitConfig } from '../../src/main/core/git/git-test-fixture';
import { FORGE_TEST_TOKEN, startForgeStandIn, type ForgeStandIn } from '../../src/main/core/test-support/forge-stand-in';
import { browserUnavailable, keepScreenshot, launchBrowser } from './support/browser';
import { serveDesk, type ServedDesk } from './support/desk-server';

const unavailable = browserUnavailable();
let browser: Browser;
let desk: ServedDesk | undefined;
let page: Page | undefined;
let forge: ForgeStandIn | undefined;
let restoreGit: () => void;

/** A task runs through real git and the scripted agent; on a busy machine that takes longer than a unit test. */
const SLOW = 120_000;

describe.skipIf(unavailable !== undefined)(`pull requests from the board${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  beforeAll(async () => {
    restoreGit = isolateGitConfig();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    restoreGit();
  });
  afterEach(async () => {
    await page?.close();
    await desk?.stop();
    await forge?.close();
    page = desk = forge = undefined;
  });

  it('opens a pull request from the review panel, links to it, and shows it merged with an Archive on the card', async () => {
    forge = await startForgeStandIn('github', 'acme/widgets');
    desk = await serveDesk({ env: { GH_TOKEN: FORGE_TEST_TOKEN, GITHUB_API_URL: forge.apiBase } });
    const bare = join(desk.repo, '..', 'remote.git');
    git(desk.repo, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
    git(desk.repo, 'remote', 'add', 'origin', 'https://github.com/acme/widgets.git');
    git(desk.repo, 'remote', 'set-url', '--push', 'origin', bare);
    await desk.api('POST', '/', { id: 'widget', prompt: 'Add the widget\nwrite widget.txt a widget' });
    await expect.poll(async () => (await desk!.api('GET', '/tasks/widget')).json.status, { timeout: 30_000 }).toBe('completed');

    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(15_000);
    await page.goto(desk.boardUrl);
    const card = page.getByRole('region', { name: 'Review', exact: true }).getByRole('article', { name: 'Task widget', exact: true });
    await card.click();
    const view = page.getByRole('region', { name: 'Task widget' });
    await view.getByRole('tab', { name: 'Changes' }).click();
    await view.getByRole('button', { name: 'Open pull request' }).click();

    const panel = view.getByRole('region', { name: 'Pull request' });
    const link = panel.getByRole('link', { name: 'PR #1' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe('https://github.com/acme/widgets/pull/1');
    expect(forge.requests[0]).toMatchObject({ head: (await desk.api('GET', '/tasks/widget')).json.branch, base: 'main', title: 'Add the widget' });
    await card.getByRole('link', { name: 'PR #1' }).waitFor();
    await keepScreenshot(page, 'pull-request-open');

    forge.merge(1);
    await panel.getByRole('button', { name: 'Refresh' }).click();
    await panel.getByText('merged', { exact: true }).waitFor();
    await card.getByText('merged', { exact: true }).waitFor();
    await keepScreenshot(page, 'pull-request-merged');

    await card.getByRole('button', { name: 'Archive task widget' }).click();
    await card.waitFor({ state: 'detached' });
    expect((await desk.api('GET', '/tasks/widget')).json.archived).toBe(true);
  }, SLOW);
});
