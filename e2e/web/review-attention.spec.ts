// Files that run on the person's machine, in a real browser against `serve` (real git, the scripted agent): the card
// and the Changes tab show them first, marked; Approve asks once, listing them, and merges only on the confirmation.
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { git, isolateGitConfig } from '../../src/main/core/git/git-test-fixture';
import { browserUnavailable, keepScreenshot, launchBrowser } from './support/browser';
import { serveDesk, type ServedDesk } from './support/desk-server';

const unavailable = browserUnavailable();
let browser: Browser;
let desk: ServedDesk | undefined;
let page: Page | undefined;
let restoreGit: () => void;

/** Each test runs an agent through real git; on a busy machine that takes longer than a unit test. */
const SLOW = 120_000;

describe.skipIf(unavailable !== undefined)(`files that run on your machine${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
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
    page = undefined;
    desk = undefined;
  });

  const region = (p: Page, name: string) => p.getByRole('region', { name, exact: true });
  const cardIn = (p: Page, column: string, id: string) => region(p, column).getByRole('article', { name: `Task ${id}`, exact: true });

  async function reviewTask(id: string, prompt: string): Promise<{ page: Page; desk: ServedDesk }> {
    desk = await serveDesk();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(15_000);
    await page.goto(desk.boardUrl);
    await page.getByRole('region', { name: 'Queued' }).waitFor();
    await desk.api('POST', '/', { id, prompt });
    await cardIn(page, 'Review', id).waitFor({ timeout: 30_000 });
    return { page, desk };
  }

  it('marks the files on the card and first in Changes, asks once listing them, and merges only when confirmed', async () => {
    const { page: p, desk: served } = await reviewTask('hooked', 'Add a hook\nwrite src/util.js export const x = 1;\nwrite .husky/pre-commit npm test\nwrite CLAUDE.md Always run the tests.');
    const before = git(served.repo, 'rev-parse', 'main');

    const note = cardIn(p, 'Review', 'hooked').getByRole('note', { name: 'Files that run on your machine' });
    await note.waitFor();
    expect(await note.getByRole('listitem').allTextContents()).toEqual(['.husky/pre-commit', 'CLAUDE.md']);

    await cardIn(p, 'Review', 'hooked').click();
    await p.getByRole('tab', { name: 'Changes' }).click();
    const flagged = p.getByRole('navigation', { name: 'Changed files' }).getByRole('region', { name: 'Files that run on your machine' });
    await flagged.waitFor();
    const rows = flagged.getByRole('button');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toContain('.husky/pre-commit');
    expect(await rows.nth(0).textContent()).toContain('needs attention: It configures git hooks');
    expect(await rows.nth(1).textContent()).toContain('CLAUDE.md');
    // The first file shown is one of them, and the note above the diff says why.
    expect(await p.getByRole('note').filter({ hasText: 'can run code or steer agents' }).textContent()).toContain('.husky/pre-commit');
    await keepScreenshot(p, 'review-attention-changes');

    await p.getByRole('toolbar', { name: 'Review actions' }).getByRole('button', { name: 'Approve' }).click();
    const dialog = p.getByRole('dialog', { name: 'Approve hooked? It changes files that run on your machine' });
    await dialog.waitFor();
    const listed = await dialog.getByRole('listitem').allTextContents();
    expect(listed).toHaveLength(2);
    expect(listed[0]).toContain('.husky/pre-commit');
    expect(listed[0]).toContain('git hooks');
    expect(listed[1]).toContain('CLAUDE.md');
    expect(listed.join(' ')).not.toContain('src/util.js');
    await keepScreenshot(p, 'review-attention-dialog');

    // "Not yet" merges nothing; the task stays in review.
    await dialog.getByRole('button', { name: 'Not yet' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(git(served.repo, 'rev-parse', 'main')).toBe(before);
    expect((await served.api('GET', '/tasks/hooked')).json.review).toBe('pending');

    // Asked again on the next Approve, once: the yes merges it.
    await p.getByRole('toolbar', { name: 'Review actions' }).getByRole('button', { name: 'Approve' }).click();
    await dialog.getByRole('button', { name: 'Approve with these files' }).click();
    await expect.poll(async () => (await served.api('GET', '/tasks/hooked')).json.review, { timeout: 15_000 }).toBe('approved');
    expect(git(served.repo, 'show', 'main:CLAUDE.md')).toBe('Always run the tests.');
    expect(await p.getByRole('dialog').count()).toBe(0);
  }, SLOW);

  it('a task without such files is approved at once, with no question', async () => {
    const { page: p, desk: served } = await reviewTask('plain', 'Add a helper\nwrite src/helper.js export const y = 2;');
    await cardIn(p, 'Review', 'plain').click();
    await p.getByRole('tab', { name: 'Changes' }).click();
    await p.getByRole('navigation', { name: 'Changed files' }).waitFor();
    expect(await p.getByRole('region', { name: 'Files that run on your machine' }).count()).toBe(0);
    await p.getByRole('toolbar', { name: 'Review actions' }).getByRole('button', { name: 'Approve' }).click();
    await expect.poll(async () => (await served.api('GET', '/tasks/plain')).json.review, { timeout: 15_000 }).toBe('approved');
    expect(await p.getByRole('dialog').count()).toBe(0);
  }, SLOW);
});
