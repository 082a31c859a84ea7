// Several repositories on the board: the picker (add, choose, remove), cards that name their repository, and the
// new-task form that picks one. Against `npm run serve` with the scripted agent, in Debian's Chromium.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, git, isolateGitConfig } from '../../src/main/core/git/git-test-fixture';
import { browserUnavailable, keepScreenshot, launchBrowser } from './support/browser';
import { serveDesk, type ServedDesk } from './support/desk-server';

const unavailable = browserUnavailable();
let browser: Browser;
let desk: ServedDesk | undefined;
let page: Page | undefined;
let elsewhere: string | undefined;
let restoreGit: () => void;

describe.skipIf(unavailable !== undefined)(`the repository picker${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
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
    if (elsewhere) rmSync(elsewhere, { recursive: true, force: true });
    page = undefined;
    desk = undefined;
    elsewhere = undefined;
  });

  /** The board over the desk's default repository, and a second repository named `api` not opened yet. */
  async function openBoard(): Promise<{ page: Page; desk: ServedDesk; api: string }> {
    desk = await serveDesk();
    elsewhere = mkdtempSync(join(tmpdir(), 'desk-e2e-more-'));
    const api = join(elsewhere, 'api');
    git(elsewhere, 'init', '--quiet', '--initial-branch=main', api);
    commitFiles(api, { 'README.md': '# API\n' }, 'Initial commit');
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(12_000);
    await page.goto(desk.boardUrl);
    await page.getByRole('region', { name: 'Queued' }).waitFor();
    return { page, desk, api };
  }

  const cardOf = (p: Page, id: string) => p.getByRole('article', { name: `Task ${id}`, exact: true });

  it('adds a repository, shows each card\'s repository, filters by it and submits into the one picked', async () => {
    const { page: p, desk: d, api } = await openBoard();
    // One repository: nothing to choose, only a way to add one; cards do not name it.
    await d.api('POST', '/', { id: 'home-task', prompt: 'Home page copy\nwrite home.txt hello' });
    await cardOf(p, 'home-task').waitFor();
    expect(await p.getByRole('combobox', { name: 'Repository', exact: true }).count()).toBe(0);
    expect(await cardOf(p, 'home-task').locator('.card-repo').count()).toBe(0);

    await p.getByRole('button', { name: 'Add repository…' }).click();
    const dialog = p.getByRole('dialog', { name: 'Add repository' });
    await dialog.getByLabel('Path').fill(join(elsewhere as string, 'missing'));
    await dialog.getByRole('button', { name: 'Add repository' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toMatch(/not inside a git work tree|no such directory/);
    await dialog.getByLabel('Path').fill(api);
    await dialog.getByRole('button', { name: 'Add repository' }).click();
    await dialog.waitFor({ state: 'detached' });

    const picker = p.getByRole('combobox', { name: 'Repository', exact: true });
    await expect.poll(() => picker.inputValue()).toBe('api');
    expect(await picker.locator('option').allTextContents()).toEqual(['All repositories', 'repo (default)', 'api']);

    expect((await d.api('POST', '/r/api/', { id: 'api-task', prompt: 'Add the health route\nwrite health.txt ok' })).status).toBe(202);
    await cardOf(p, 'api-task').waitFor();
    await expect.poll(() => cardOf(p, 'home-task').count()).toBe(0);
    expect(await cardOf(p, 'api-task').locator('.card-repo').textContent()).toBe('api');

    await picker.selectOption('');
    await cardOf(p, 'home-task').waitFor();
    expect(await cardOf(p, 'home-task').locator('.card-repo').textContent()).toBe('repo');

    await p.getByRole('button', { name: 'New task' }).click();
    const form = p.getByRole('dialog', { name: 'New task' });
    await form.getByLabel('Prompt').fill('Document the API\nwrite docs.txt from the board');
    await form.getByLabel('Task id').fill('from-board');
    await form.getByLabel('Repository').selectOption('api');
    await form.getByRole('button', { name: 'Create task' }).click();
    await form.waitFor({ state: 'detached' });
    await cardOf(p, 'from-board').waitFor();
    const submitted = await d.api('GET', '/r/api/tasks/from-board');
    expect(submitted.status).toBe(200);
    expect(submitted.json.repo).toBe('api');
    expect((await d.api('GET', '/r/api/')).json.tasks.map((t: { id: string }) => t.id)).toEqual(['api-task', 'from-board']);

    for (const id of ['home-task', 'api-task', 'from-board']) {
      await p.getByRole('region', { name: 'Review', exact: true }).getByRole('article', { name: `Task ${id}`, exact: true }).waitFor({ timeout: 30_000 });
    }
    for (const colorScheme of ['light', 'dark'] as const) {
      await p.emulateMedia({ colorScheme });
      await keepScreenshot(p, `repos-picker-all-${colorScheme}`);
    }
    await picker.selectOption('api');
    await p.emulateMedia({ colorScheme: 'light' });
    await keepScreenshot(p, 'repos-picker-api-light');
  });

  it('refuses to remove a repository while its tasks run, naming them, then removes it and keeps its folder', async () => {
    const { page: p, desk: d, api } = await openBoard();
    expect((await d.api('POST', '/api/repos', { path: api })).status).toBe(201);
    await p.reload();
    const picker = p.getByRole('combobox', { name: 'Repository', exact: true });
    await picker.selectOption('api');
    await d.api('POST', '/r/api/', { id: 'long-one', prompt: 'sleep 60000' });
    await cardOf(p, 'long-one').waitFor();

    await p.getByRole('button', { name: 'Remove api' }).click();
    await expect.poll(() => p.getByRole('alert').first().textContent()).toContain('long-one');
    expect((await d.api('GET', '/api/repos')).json.repos.map((r: { name: string }) => r.name)).toEqual(['repo', 'api']);

    await d.api('DELETE', '/tasks/long-one');
    await p.getByRole('button', { name: 'Remove api' }).click();
    await expect.poll(() => picker.count()).toBe(0);
    expect((await d.api('GET', '/api/repos')).json.repos.map((r: { name: string }) => r.name)).toEqual(['repo']);
    expect(git(api, 'log', '--format=%s')).toBe('Initial commit');
    await keepScreenshot(p, 'repos-picker-removed-light');
  });
  it('sets a repository\'s worktree setup in Settings, and shows a repository\'s own .desk/config.json read-only', async () => {
    const { page: p, desk: d, api } = await openBoard();
    commitFiles(api, { '.desk/config.json': JSON.stringify({ setup: 'npm ci', copy: ['.env'] }) }, 'Desk setup');
    expect((await d.api('POST', '/api/repos', { path: api })).status).toBe(201);
    await p.getByRole('button', { name: 'Settings' }).click();
    const settings = p.getByRole('dialog', { name: 'Settings' });

    const own = settings.getByRole('region', { name: 'Repository repo' });
    await own.getByLabel('Setup command').fill('echo ready');
    await own.getByLabel('Copy into each worktree (one glob a line)').fill('.env');
    await own.getByRole('button', { name: 'Save setup of repo' }).click();
    await expect.poll(async () => (await d.api('GET', '/api/repos')).json.repos[0].setup).toEqual({
      source: 'settings', config: { setup: 'echo ready', copy: ['.env'] }, settings: { setup: 'echo ready', copy: ['.env'] },
    });
    await expect.poll(() => own.textContent()).toContain('from these settings');

    const other = settings.getByRole('region', { name: 'Repository api' });
    expect(await other.getByRole('textbox').count()).toBe(0);
    expect(JSON.parse(await other.getByLabel('The .desk/config.json of api').textContent() ?? '')).toEqual({ setup: 'npm ci', copy: ['.env'] });
    expect(await other.textContent()).toContain('it wins over these settings');

    await other.scrollIntoViewIfNeeded();
    for (const colorScheme of ['light', 'dark'] as const) {
      await p.emulateMedia({ colorScheme });
      await keepScreenshot(p, `repos-settings-${colorScheme}`);
    }
  });
});
