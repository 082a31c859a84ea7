// "Always allow" in a real browser against `serve` with the scripted agent: the person chooses it on the question, the
// next request of that kind goes through without asking, and Settings makes the answer a policy rule from the keyboard.
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

describe.skipIf(unavailable !== undefined)(`"Always allow"${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  beforeAll(async () => {
    restoreGit = isolateGitConfig();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    restoreGit();
  });
  afterEach(async (context) => {
    if (page) await keepScreenshot(page, context.task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase());
    await page?.close();
    await desk?.stop();
  });

  it('is kept for the rest of the task, listed in Settings, and made a rule there from the keyboard', { timeout: 120_000 }, async () => {
    desk = await serveDesk();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.setDefaultTimeout(20_000);
    await page.goto(desk.boardUrl);
    await desk.api('POST', '/', { id: 'tidy', prompt: 'offer-always\nask Tidy up the notes?\nask Tidy up the tests too?\nsay Done tidying' });
    const card = page.getByRole('region', { name: 'Needs input', exact: true }).getByRole('article', { name: 'Task tidy', exact: true });
    await card.click();
    const view = page.getByRole('region', { name: 'Task tidy' });
    await view.getByRole('group', { name: 'The agent asks permission' }).getByRole('button', { name: 'Always allow' }).click();

    await page.getByRole('region', { name: 'Review', exact: true }).getByRole('article', { name: 'Task tidy', exact: true }).waitFor();
    const activity = view.getByRole('log', { name: 'Activity' });
    await activity.getByText('Approved: You chose Always allow for other earlier in this task.').waitFor();
    expect(await activity.textContent()).toContain('Done tidying');

    await page.getByRole('button', { name: 'Settings' }).click();
    const section = page.getByRole('group', { name: 'Always-allow answers given in tasks' });
    await section.getByRole('list', { name: 'Always-allow answers' }).waitFor();
    expect(await section.textContent()).toContain('other for scripted in task tidy');
    const makeRule = section.getByRole('button', { name: 'Make it a rule: allow other for scripted' });
    await makeRule.focus();
    await page.keyboard.press('Enter');
    await section.getByText('Allowed by the policy').waitFor();
    const { policy } = (await desk.api('GET', '/api/governance/policy')).json;
    expect(policy.agents.scripted.capabilities).toEqual({ other: 'allow' });
  });
});
