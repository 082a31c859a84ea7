// A task's dev server from its panel in a real browser against `serve`: Start dev server, the link once the port
// answers (opened, it shows the server's page), Stop dev server, and the terminal with its output in the stream.
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

const SERVER_SCRIPT = `
require('node:http').createServer((req, res) => res.end('<h1>Preview of the task</h1>'))
  .listen(Number(process.env.PORT), '127.0.0.1', () => console.log('dev server listening on ' + process.env.PORT));
`;

describe.skipIf(unavailable !== undefined)(`a task's dev server on the board${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  beforeAll(async () => {
    restoreGit = isolateGitConfig();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    restoreGit();
  });
  afterEach(async () => {
    if (page) await keepScreenshot(page, 'dev-server-panel');
    await page?.close();
    await desk?.stop();
    page = undefined;
    desk = undefined;
  });

  /** An agent runs through real git and a served desk; on a busy machine that takes longer than a unit test. */
  const SLOW = 120_000;

  it('starts from the task\'s panel, links to the server once it answers, and stops', async () => {
    desk = await serveDesk({
      files: {
        'scripts/dev.cjs': SERVER_SCRIPT,
        '.desk/config.json': JSON.stringify({ devServer: { command: `"${process.execPath}" scripts/dev.cjs`, portEnv: 'PORT' } }),
      },
    });
    const p = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page = p;
    p.setDefaultTimeout(15_000);
    await p.goto(desk.boardUrl);
    await desk.api('POST', '/', { id: 'preview', prompt: 'write page.txt a change to try' });
    const card = p.getByRole('region', { name: 'Review', exact: true }).getByRole('article', { name: 'Task preview', exact: true });
    await card.waitFor({ timeout: 30_000 });
    await card.click();
    const view = p.getByRole('region', { name: 'Task preview' });

    await view.getByRole('button', { name: 'Start dev server' }).click();
    const link = view.getByRole('link', { name: /^http:\/\/127\.0\.0\.1:\d+\/$/ });
    await link.waitFor({ timeout: 30_000 });
    const url = await link.getAttribute('href');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);

    // The link leads to the server's page, from the host.
    const [preview] = await Promise.all([p.context().waitForEvent('page'), link.click()]);
    await preview.getByRole('heading', { name: 'Preview of the task' }).waitFor();
    await preview.close();

    // Its output is a terminal of the task's stream.
    await view.locator('summary', { hasText: 'scripts/dev.cjs' }).click();
    const output = view.getByRole('group', { name: /^Output of sh -c .*scripts\/dev\.cjs/ });
    await expect.poll(async () => (await output.textContent())?.replace(/\u00a0/g, ' ')).toContain(`dev server listening on ${new URL(url as string).port}`);

    await view.getByRole('button', { name: 'Stop dev server' }).click();
    await view.getByRole('button', { name: 'Start dev server' }).waitFor();
    expect((await desk.api('GET', '/api/tasks/preview/dev-server')).json.devServer.state).toBe('exited');
  }, SLOW);
});
