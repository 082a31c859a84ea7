// A task an agent proposed through the desk's MCP server, as a person sees it on the board: the proposed card
// appears in Queued with who proposed it, waits, and runs once the person approves it (or never, once dismissed).
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isolateGitConfig } from '../../src/main/core/git/git-test-fixture';
import { browserUnavailable, keepScreenshot, launchBrowser } from './support/browser';
import { serveDesk, type ServedDesk } from './support/desk-server';

const unavailable = browserUnavailable();
let browser: Browser;
let desk: ServedDesk | undefined;
let page: Page | undefined;
let restoreGit: () => void;

describe.skipIf(unavailable !== undefined)(`proposed tasks on the board${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
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
  });

  it('shows the card an agent proposed, which runs only once a person approves it; a dismissed one never runs', async () => {
    desk = await serveDesk();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(15_000);
    await page.goto(desk.boardUrl);
    await page.getByRole('region', { name: 'Queued' }).waitFor();
    const column = (name: string) => page!.getByRole('region', { name, exact: true });
    const card = (id: string) => page!.getByRole('article', { name: `Task ${id}`, exact: true });

    // The scripted agent, in its sandbox, proposes two tasks through the MCP server it got in session/new.
    await desk.api('POST', '/', { id: 'planner', prompt: [
      'Plan the documentation',
      'mcp propose write-docs Write the getting-started guide\\nwrite docs/getting-started.md # Getting started',
      'mcp propose extra-lint Add a lint step to CI',
    ].join('\n') });
    const proposed = column('Queued').getByRole('article', { name: 'Task write-docs', exact: true });
    await proposed.waitFor();
    await expect.poll(() => proposed.textContent()).toContain('Proposed by planner');
    await card('extra-lint').waitFor();
    await column('Review').getByRole('article', { name: 'Task planner', exact: true }).waitFor();
    // Held: the planner finished and slots are free, yet the proposal stays queued.
    expect((await desk.api('GET', '/tasks/write-docs')).json).toMatchObject({ status: 'queued', proposal: 'pending', attempt: 0 });

    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await keepScreenshot(page, `proposals-pending-${colorScheme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });

    await page.getByRole('button', { name: 'Approve proposed task write-docs' }).click();
    await column('Review').getByRole('article', { name: 'Task write-docs', exact: true }).waitFor();
    await expect.poll(() => card('write-docs').textContent()).toContain('Proposed by planner');
    expect(await page.getByRole('button', { name: 'Approve proposed task write-docs' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Dismiss proposed task extra-lint' }).click();
    await expect.poll(async () => (await desk!.api('GET', '/tasks/extra-lint')).json).toMatchObject({ status: 'cancelled', proposal: 'dismissed', attempt: 0 });
    await expect.poll(() => column('Queued').getByRole('article').count()).toBe(0);

    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await keepScreenshot(page, `proposals-approved-${colorScheme}`);
    }
    // Three agent runs, each in its own sandbox, on a machine other engineers share.
  }, 90_000);
});
