// The board at the laptop widths people use (1280×800, 1440×900) with cards in every column: the top bar is one row,
// each card's task id and agent are whole, and cards in Review say what changed. The screenshots of each width are
// kept in e2e/artifacts/ to look at.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolateGitConfig } from '../../src/main/core/git/git-test-fixture';
import { ARTIFACTS, browserUnavailable, launchBrowser } from './support/browser';
import { serveDesk, type ServedDesk } from './support/desk-server';

const unavailable = browserUnavailable();
const SIZES = [{ width: 1280, height: 800 }, { width: 1440, height: 900 }] as const;
let browser: Browser;
let desk: ServedDesk;
let page: Page;
let restoreGit: () => void;

/** Whether an element shows all of its text: nothing cut off to the side or below (an ellipsis cuts to the side). */
const wholeText = (selector: string) => page.locator(selector).evaluateAll((elements) => elements.map((element) => ({
  text: element.textContent ?? '',
  whole: element.scrollWidth <= element.clientWidth + 1 && element.scrollHeight <= element.clientHeight + 1,
})));

describe.skipIf(unavailable !== undefined)(`the board's layout${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  beforeAll(async () => {
    restoreGit = isolateGitConfig();
    browser = await launchBrowser();
    desk = await serveDesk({ policy: { version: 1, defaults: { capabilities: { execute: 'allow' } } } });
    page = await browser.newPage({ viewport: SIZES[0], colorScheme: 'light' });
    page.setDefaultTimeout(20_000);
    await page.goto(desk.boardUrl);
    const card = (column: string, id: string) => page.getByRole('region', { name: column, exact: true }).getByRole('article', { name: `Task ${id}`, exact: true });
    const submit = (id: string, prompt: string, dependencies: string[] = []) => desk.api('POST', '/', { id, prompt, dependencies });
    // Ids as people write them, and one of every column: two in Review, one asking, one working, one queued.
    await submit('add-config-loader', 'Load the settings from config.json\nwrite src/config.js export const load = () => ({});\nwrite test/config.test.js import "../src/config.js";\nappend src/app.js export const configured = true;');
    await submit('document-the-api', 'Document greet()\nwrite docs/greet.md greet() returns a greeting');
    await card('Review', 'add-config-loader').waitFor();
    await card('Review', 'document-the-api').waitFor();
    await submit('changelog-entry', 'Start a changelog\nask May I add a changelog?\nwrite CHANGELOG.md # Changes');
    await submit('refactor-greeting', 'Tidy greet()\nthink Reading src/app.js first\nsleep 600000');
    await submit('release-notes-2026', 'Tag the release notes\nwrite NOTES.md Release notes', ['changelog-entry']);
    await card('Needs input', 'changelog-entry').waitFor();
    await card('Working', 'refactor-greeting').waitFor();
    await card('Queued', 'release-notes-2026').waitFor();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
    restoreGit?.();
  });

  for (const size of SIZES) {
    describe(`at ${size.width}×${size.height}`, () => {
      beforeAll(async () => {
        await page.setViewportSize(size);
        // Wait for the layout at this width, then keep what it looks like.
        await page.waitForFunction((width) => document.documentElement.clientWidth === width, size.width);
        await page.screenshot({ path: `${ARTIFACTS}/board-${size.width}x${size.height}.png` });
      });

      it('keeps the top bar on one row', async () => {
        const rows = await page.locator('header.topbar').evaluate((header) => {
          const boxes = [...header.children].map((child) => child.getBoundingClientRect()).filter((box) => box.width > 0);
          return { tops: boxes.map((box) => Math.round(box.top)), bottoms: boxes.map((box) => Math.round(box.bottom)) };
        });
        // On one row every item starts above where every other ends.
        expect(Math.max(...rows.tops)).toBeLessThan(Math.min(...rows.bottoms));
      });

      it('shows every card\'s task id and agent whole', async () => {
        const ids = await wholeText('.card .card-id');
        expect(ids.map(({ text }) => text).sort()).toEqual(['add-config-loader', 'changelog-entry', 'document-the-api', 'refactor-greeting', 'release-notes-2026']);
        expect(ids.filter(({ whole }) => !whole)).toEqual([]);
        const agents = await wholeText('.card .card-agent');
        expect(agents.length).toBe(5);
        expect(agents.filter(({ whole }) => !whole)).toEqual([]);
      });

      it('says on each card in Review which files changed and how many lines, as the Changes tab does', async () => {
        const review = page.getByRole('region', { name: 'Review', exact: true });
        const counts = review.getByRole('article', { name: 'Task add-config-loader', exact: true }).getByLabel('What changed');
        expect(await counts.textContent()).toBe('3 files changed, +3 −0');
        expect(await review.getByRole('article', { name: 'Task document-the-api', exact: true }).getByLabel('What changed').textContent()).toBe('1 file changed, +1 −0');
        expect((await wholeText('.card-changes')).filter(({ whole }) => !whole)).toEqual([]);
      });
    });
  }
});
