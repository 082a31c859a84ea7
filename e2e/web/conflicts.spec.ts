// Two tasks that change the same file, in a real browser against `serve` with the scripted agent: once the first is
// approved, the second says it is behind its base, Update from base shows the conflict, the agent resolves it, and
// approval merges both changes into the base branch.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitFiles, git, isolateGitConfig } from '../../src/main/core/git/git-test-fixture';
import { browserUnavailable, keepScreenshot, launchBrowser } from './support/browser';
import { serveDesk, type ServedDesk } from './support/desk-server';

const unavailable = browserUnavailable();
let browser: Browser;
let desk: ServedDesk | undefined;
let restoreGit: () => void;

describe.skipIf(unavailable !== undefined)(`conflicts with a way out${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  beforeAll(async () => {
    restoreGit = isolateGitConfig();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await desk?.stop();
    await browser?.close();
    restoreGit();
  });

  /** The same view in light and in dark, at 1280×800. */
  async function screenshots(page: Page, name: string) {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await keepScreenshot(page, `conflicts-${name}-${colorScheme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }

  it('shows behind-base, the conflict and its files, lets the agent resolve it, and approval merges both changes', async () => {
    desk = await serveDesk();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(15_000);
    await page.goto(desk.boardUrl);
    const column = (name: string) => page.getByRole('region', { name, exact: true });
    const card = (id: string) => page.getByRole('article', { name: `Task ${id}`, exact: true });

    await desk.api('POST', '/', { id: 'types-a', prompt: 'Declare type A\nwrite index.d.ts export type A = 1;' });
    await desk.api('POST', '/', { id: 'types-b', prompt: 'Declare type B\nwrite index.d.ts export type B = 2;' });
    await column('Review').getByRole('article', { name: 'Task types-a', exact: true }).waitFor();
    await column('Review').getByRole('article', { name: 'Task types-b', exact: true }).waitFor();

    // Approve the first.
    await card('types-a').click();
    let view = page.getByRole('region', { name: 'Task types-a' });
    await view.getByRole('tab', { name: 'Changes' }).click();
    await view.getByRole('button', { name: 'Approve' }).click();
    await column('Done').getByRole('article', { name: 'Task types-a', exact: true }).waitFor();

    // The second is behind its base now.
    await card('types-b').click();
    view = page.getByRole('region', { name: 'Task types-b' });
    await view.getByRole('tab', { name: 'Changes' }).click();
    const base = view.getByRole('region', { name: 'Base branch' });
    await expect.poll(() => base.textContent()).toMatch(/Behind main by \d+ commits? · 1 commit ahead/);
    await view.getByText('1 file changed').waitFor();
    await screenshots(page, 'behind-base');

    // Approving it names the real cause.
    await view.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The base moved on');
    expect(await page.getByRole('alert').textContent()).toContain('conflicts with main in index.d.ts');
    await screenshots(page, 'approve-refused');

    // Update from base (merge) stops on the conflict and lists the file.
    await view.getByRole('group', { name: 'Update strategy' }).getByRole('button', { name: 'Merge' }).click();
    await view.getByRole('button', { name: 'Update from base' }).click();
    const conflict = view.getByRole('region', { name: 'Conflicts with the base branch' });
    await conflict.getByRole('list', { name: 'Conflicted files' }).getByText('index.d.ts').waitFor();
    expect(await conflict.textContent()).toContain('Conflicts with main');
    await screenshots(page, 'conflict');
    await view.getByRole('button', { name: 'Back to board' }).click();
    await expect.poll(() => card('types-b').textContent()).toContain('Conflicts with main: index.d.ts');
    await screenshots(page, 'conflict-card');

    // Ask the agent to resolve, telling the scripted agent how.
    await card('types-b').click();
    view = page.getByRole('region', { name: 'Task types-b' });
    await view.getByRole('tab', { name: 'Changes' }).click();
    await view.getByLabel('Tell the agent how (optional)').fill('resolve index.d.ts both');
    await view.getByRole('button', { name: 'Ask the agent to resolve' }).click();
    await expect.poll(() => view.getByRole('region', { name: 'Base branch' }).textContent(), { timeout: 30_000 }).toMatch(/Up to date with main/);
    const detail = (await desk.api('GET', '/tasks/types-b')).json;
    expect(detail.conflict).toBeUndefined();
    expect(detail.turns.at(-1).prompt).toContain('Conflicted files: index.d.ts');
    await screenshots(page, 'resolved');

    // Approval merges both changes into main.
    await view.getByRole('button', { name: 'Approve' }).click();
    await column('Done').getByRole('article', { name: 'Task types-b', exact: true }).waitFor();
    const merged = git(desk.repo, 'show', 'main:index.d.ts');
    expect(merged).toContain('export type A = 1;');
    expect(merged).toContain('export type B = 2;');
    expect(merged).not.toMatch(/^(<{7}|={7}|>{7})/m);
    await page.close();
  }, 120_000);

  it('pushes after approval as Settings says, and shows a refused push on the card without forcing it', async () => {
    await desk?.stop();
    desk = await serveDesk();
    const remoteDir = mkdtempSync(join(tmpdir(), 'desk-e2e-remote-'));
    const bare = join(remoteDir, 'remote.git');
    git(remoteDir, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
    git(desk.repo, 'remote', 'add', 'origin', bare);
    git(desk.repo, 'push', '--quiet', 'origin', 'main');

    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(15_000);
    await page.goto(desk.boardUrl);
    const column = (name: string) => page.getByRole('region', { name, exact: true });
    const card = (id: string) => page.getByRole('article', { name: `Task ${id}`, exact: true });

    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByLabel('Push').selectOption('base');
    await settings.getByRole('button', { name: 'Save push setting' }).click();
    await expect.poll(async () => (await desk?.api('GET', '/api/settings'))?.json.pushAfterApprove).toEqual({ remote: 'origin', branch: 'base' });
    await settings.getByRole('button', { name: 'Close' }).last().click();

    await desk.api('POST', '/', { id: 'shipped', prompt: 'Ship it\nwrite shipped.txt yes' });
    await column('Review').getByRole('article', { name: 'Task shipped', exact: true }).waitFor();
    expect((await desk.api('POST', '/tasks/shipped/approve')).status).toBe(200);
    await expect.poll(() => card('shipped').textContent()).toContain('Pushed main to origin');
    expect(git(bare, 'rev-parse', 'main')).toBe(git(desk.repo, 'rev-parse', 'main'));

    // Someone else pushes first: the next push is refused, and the remote keeps their commit.
    git(remoteDir, 'clone', '--quiet', bare, 'clone');
    commitFiles(join(remoteDir, 'clone'), { 'theirs.txt': 'theirs\n' }, 'Their commit');
    git(join(remoteDir, 'clone'), 'push', '--quiet', 'origin', 'main');
    const theirs = git(bare, 'rev-parse', 'main');
    await desk.api('POST', '/', { id: 'refused', prompt: 'Ship more\nwrite more.txt yes' });
    await column('Review').getByRole('article', { name: 'Task refused', exact: true }).waitFor();
    expect((await desk.api('POST', '/tasks/refused/approve')).status).toBe(200);
    await expect.poll(() => card('refused').textContent()).toContain('Push of main to origin failed: rejected');
    expect(git(bare, 'rev-parse', 'main')).toBe(theirs);
    await screenshots(page, 'push-cards');
    await page.close();
    rmSync(remoteDir, { recursive: true, force: true });
  }, 120_000);
});
