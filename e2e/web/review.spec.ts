// Review at scale and the board's forms in a real browser against `serve` (real git, the scripted agent): bulk
// approval, the archive, the dependency combobox and viewed marks, each kept as light and dark screenshots.
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

describe.skipIf(unavailable !== undefined)(`review at scale${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
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

  async function openBoard(): Promise<{ page: Page; desk: ServedDesk }> {
    desk = await serveDesk();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(15_000);
    await page.goto(desk.boardUrl);
    await page.getByRole('region', { name: 'Queued' }).waitFor();
    return { page, desk };
  }

  /** What the person sees now, in the light and the dark scheme. */
  async function screenshots(name: string): Promise<void> {
    if (!page) return;
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await keepScreenshot(page, `review-${name}-${colorScheme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }

  async function completedTasks(served: ServedDesk, ids: string[]): Promise<void> {
    for (const id of ids) await served.api('POST', '/', { id, prompt: `Add ${id}\nwrite ${id}.txt made by ${id}` });
    for (const id of ids) {
      await expect.poll(async () => (await served.api('GET', `/tasks/${id}`)).json.status, { timeout: 30_000 }).toBe('completed');
    }
  }

  /** Each test runs several agents through real git; on a busy machine that takes longer than a unit test. */
  const SLOW = 120_000;

  const region = (p: Page, name: string) => p.getByRole('region', { name, exact: true });
  const cardIn = (p: Page, column: string, id: string) => region(p, column).getByRole('article', { name: `Task ${id}`, exact: true });

  it('approves three selected tasks in one go: all three are merged into the base branch', async () => {
    const { page: p, desk: served } = await openBoard();
    await completedTasks(served, ['alpha', 'beta', 'gamma']);
    for (const id of ['alpha', 'beta', 'gamma']) await cardIn(p, 'Review', id).waitFor();

    await p.getByRole('checkbox', { name: 'Select task alpha' }).click();
    // A shift-click picks every card between the last one picked and this one.
    await p.getByRole('checkbox', { name: 'Select task gamma' }).click({ modifiers: ['Shift'] });
    const bar = p.getByRole('region', { name: 'Selected tasks' });
    expect(await bar.textContent()).toContain('3 selected');
    await screenshots('bulk-selected');

    await bar.getByRole('button', { name: 'Approve selected' }).click();
    await bar.getByRole('status').filter({ hasText: 'Done: 3 of 3 approved.' }).waitFor({ timeout: 30_000 });
    const results = await bar.getByRole('list', { name: 'Results' }).getByRole('listitem').allTextContents();
    expect(results).toEqual(['alpha approved', 'beta approved', 'gamma approved']);
    for (const id of ['alpha', 'beta', 'gamma']) {
      await cardIn(p, 'Done', id).waitFor();
      expect(git(served.repo, 'show', `main:${id}.txt`)).toBe(`made by ${id}`);
    }
    await screenshots('bulk-approved');
  }, SLOW);

  it('archives a task: the board hides it, the Archived filter shows it, and Clear done says how many it takes', async () => {
    const { page: p, desk: served } = await openBoard();
    await completedTasks(served, ['shelve-me', 'approved-one', 'stays']);
    expect((await served.api('POST', '/tasks/approved-one/approve')).status).toBe(200);
    await cardIn(p, 'Review', 'shelve-me').click();
    await p.getByRole('toolbar', { name: 'Task actions' }).getByRole('button', { name: 'Archive' }).click();
    await cardIn(p, 'Review', 'shelve-me').waitFor({ state: 'detached' });
    expect((await served.api('GET', '/tasks/shelve-me')).json.archived).toBe(true);
    await p.getByRole('button', { name: 'Back to board' }).click();

    await p.getByRole('button', { name: 'Archived', exact: true }).click();
    await cardIn(p, 'Review', 'shelve-me').waitFor();
    expect(await region(p, 'Review').getByRole('article').count()).toBe(1);
    await screenshots('archived-filter');
    await p.getByRole('button', { name: 'Archived', exact: true }).click();
    await cardIn(p, 'Review', 'stays').waitFor();
    expect(await cardIn(p, 'Review', 'shelve-me').count()).toBe(0);

    await region(p, 'Done').getByRole('button', { name: 'Clear done' }).click();
    const confirm = p.getByRole('dialog', { name: 'Archive 1 finished task?' });
    await confirm.waitFor();
    await screenshots('clear-done');
    await confirm.getByRole('button', { name: 'Archive 1' }).click();
    await cardIn(p, 'Done', 'approved-one').waitFor({ state: 'detached' });
    expect((await served.api('GET', '/api/tasks?archived=true')).json.tasks.map((t: { id: string }) => t.id).sort()).toEqual(['approved-one', 'shelve-me']);
  }, SLOW);

  it('the dependency combobox offers only tasks it can still wait for, and says why the others are not offered', async () => {
    const { page: p, desk: served } = await openBoard();
    await completedTasks(served, ['finished']);
    await served.api('POST', '/', { id: 'gate', prompt: 'Hold the slot\nsleep 60000' });
    await served.api('POST', '/', { id: 'first', prompt: 'The first step', dependencies: ['gate'] });
    await served.api('POST', '/', { id: 'second', prompt: 'The second step', dependencies: ['first'] });
    await served.api('POST', '/', { id: 'other', prompt: 'Another step', dependencies: ['gate'] });
    await cardIn(p, 'Queued', 'other').waitFor();

    await cardIn(p, 'Queued', 'first').click();
    await p.getByRole('toolbar', { name: 'Task actions' }).getByRole('button', { name: 'Wait for…' }).click();
    const dialog = p.getByRole('dialog', { name: 'Wait for another task' });
    const offered = dialog.locator('[role="option"]:not([aria-disabled="true"])');
    await expect.poll(() => offered.allTextContents()).toEqual(['other Another step']);
    const refusal = (id: string) => dialog.locator('[role="option"][aria-disabled="true"]', { has: p.locator('code', { hasText: new RegExp(`^${id}$`) }) }).locator('.dep-why');
    expect(await refusal('finished').textContent()).toBe('Not offered: finished (completed): nothing left to wait for');
    expect(await refusal('second').textContent()).toBe('Not offered: would close a cycle: first → second → first');
    expect(await refusal('gate').textContent()).toBe('Not offered: already waited for');
    await screenshots('combobox');

    await dialog.getByRole('combobox', { name: 'Task' }).fill('another');
    await dialog.getByRole('combobox', { name: 'Task' }).press('Enter');
    await dialog.getByRole('button', { name: 'Link' }).click();
    await expect.poll(async () => (await served.api('GET', '/tasks/first')).json.dependencies).toEqual(['gate', 'other']);

    // New task's "Waits for": a new id that "later" already waits for must not wait for "later".
    await served.api('POST', '/', { id: 'later', prompt: 'Comes later', dependencies: ['brand-new'] });
    await p.getByRole('button', { name: 'Back to board' }).click();
    await p.getByRole('button', { name: 'New task' }).click();
    const create = p.getByRole('dialog', { name: 'New task' });
    await create.getByLabel('Task id').fill('brand-new');
    await create.getByRole('combobox', { name: 'Waits for' }).fill('later');
    expect(await create.locator('.dep-why').allTextContents()).toEqual(['Not offered: would close a cycle: brand-new → later → brand-new']);
    await screenshots('combobox-new-task');
  }, SLOW);

  it('keeps viewed marks across a reload, and drops a mark when that file changes', async () => {
    const { page: p, desk: served } = await openBoard();
    const longLine = 'export const greeting = (name) => `Hello, ${name}! Welcome back to the project; here is what changed today.`;';
    await served.api('POST', '/', {
      id: 'reviewed',
      prompt: `Touch three files\nwrite src/app.js ${longLine}\\nexport const x = 1;\nwrite src/lib/util.js export const util = () => 42;\nwrite notes.md Notes`,
    });
    await expect.poll(async () => (await served.api('GET', '/tasks/reviewed')).json.status, { timeout: 30_000 }).toBe('completed');
    await cardIn(p, 'Review', 'reviewed').click();
    const view = p.getByRole('region', { name: 'Task reviewed' });
    await view.getByRole('tab', { name: 'Changes' }).click();
    const files = view.getByRole('navigation', { name: 'Changed files' });
    await files.getByRole('checkbox', { name: 'Viewed src/app.js' }).check();
    await files.getByRole('checkbox', { name: 'Viewed notes.md' }).check();
    await files.getByText('2 of 3 viewed').waitFor();
    await files.getByRole('button', { name: /app\.js/ }).click();
    await view.getByRole('button', { name: 'Side by side' }).click();
    await view.getByRole('group', { name: 'Changes in src/app.js' }).waitFor();
    await screenshots('viewed-side-by-side');

    // Side by side at 1280 px with the panel open, no line breaks into fragments: each code cell is one line high.
    const heights = await view.locator('.diff-split .dl .code').evaluateAll((cells) => cells.map((cell) => cell.getBoundingClientRect().height));
    expect(heights.length).toBeGreaterThan(0);
    expect(Math.max(...heights)).toBeLessThanOrEqual(21);

    await p.reload();
    await p.getByRole('region', { name: 'Task reviewed' }).getByRole('tab', { name: 'Changes' }).click();
    const again = p.getByRole('navigation', { name: 'Changed files' });
    await again.getByText('2 of 3 viewed').waitFor();
    expect(await again.getByRole('checkbox', { name: 'Viewed src/app.js' }).isChecked()).toBe(true);
    expect(await again.getByRole('checkbox', { name: 'Viewed src/lib/util.js' }).isChecked()).toBe(false);

    // A follow-up changes src/app.js: its mark no longer counts; notes.md keeps its own.
    await served.api('POST', '/tasks/reviewed/prompt', { prompt: 'append src/app.js export const y = 2;' });
    await expect.poll(async () => (await served.api('GET', '/tasks/reviewed')).json.turns.at(-1)?.status, { timeout: 30_000 }).toBe('completed');
    await again.getByText('1 of 3 viewed').waitFor();
    expect(await again.getByRole('checkbox', { name: 'Viewed src/app.js' }).isChecked()).toBe(false);
    expect(await again.getByRole('checkbox', { name: 'Viewed notes.md' }).isChecked()).toBe(true);
    await screenshots('viewed-after-change');
  }, SLOW);
});
