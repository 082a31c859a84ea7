// A task with attempts in a real browser against `serve` with the scripted agent: the card lists each attempt, the
// Review panel shows them side by side (with a judge's recommendation, marked as the judge's), and "Keep attempt n",
// reached from the keyboard, keeps that one.
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

describe.skipIf(unavailable !== undefined)(`attempts on the board${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
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

  it('submits several attempts from New task, picked agent by agent, and keeps the first to complete', { timeout: 120_000 }, async () => {
    desk = await serveDesk();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.setDefaultTimeout(20_000);
    await page.goto(desk.boardUrl);
    await page.getByRole('button', { name: 'New task' }).click();
    const form = page.getByRole('dialog', { name: 'New task' });
    await form.getByLabel('Prompt').fill('Greet\nwrite src/app.js export const greet = () => "hey";');
    await form.getByLabel('Task id').fill('several');
    await form.getByText('Several attempts').click();
    await form.getByLabel('Runs of Scripted agent').fill('1');
    await form.getByRole('button', { name: 'Create task' }).click();
    // One run is not several: the dialog says so and submits nothing.
    await form.getByRole('alert').getByText('Pick at least 2 runs').waitFor();
    await form.getByLabel('Runs of Scripted agent').fill('3');
    await form.getByLabel('Keep').selectOption('first');
    await form.getByRole('button', { name: 'Create task' }).click();
    await form.waitFor({ state: 'detached' });

    await page.getByRole('region', { name: 'Review', exact: true }).getByRole('article', { name: 'Task several', exact: true }).waitFor({ timeout: 30_000 });
    const task = (await desk.api('GET', '/tasks/several')).json;
    expect(task.choose).toBe('first');
    expect(task.attempts.map((a: { agent: string }) => a.agent)).toEqual(['scripted', 'scripted', 'scripted']);
    expect(task.attempts.filter((a: { chosen?: boolean }) => a.chosen)).toHaveLength(1);
  });

  it('lists the attempts on the card, compares them in Review and keeps the one chosen from the keyboard', { timeout: 120_000 }, async () => {
    desk = await serveDesk();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.setDefaultTimeout(20_000);
    await page.goto(desk.boardUrl);
    await desk.api('POST', '/', { id: 'pick', prompt: 'Greet\nwrite src/app.js export const greet = () => "hi";', attempts: [{}, {}] });
    const card = page.getByRole('region', { name: 'Needs input', exact: true }).getByRole('article', { name: 'Task pick', exact: true });
    const listed = card.getByRole('list', { name: 'Attempts' });
    await listed.getByText('#2 scripted · Completed · +1 −1', { exact: true }).waitFor();
    expect(await listed.getByRole('listitem').allTextContents()).toEqual(['#1 scripted · Completed · +1 −1', '#2 scripted · Completed · +1 −1']);

    await card.focus();
    await page.keyboard.press('Enter');
    const view = page.getByRole('region', { name: 'Task pick' });
    await view.getByRole('tab', { name: 'Changes' }).click();
    const panel = view.getByRole('region', { name: 'Attempts' });
    await panel.getByRole('listitem', { name: 'Attempt 1' }).waitFor();
    expect(await panel.getByRole('listitem', { name: 'Attempt 2' }).textContent()).toContain('+1 −1');
    // The file both attempts changed, viewed across them.
    await panel.getByLabel('Compare a file across attempts').selectOption('src/app.js');
    for (const n of [1, 2]) await panel.getByRole('region', { name: `Attempt ${n}: src/app.js` }).getByRole('group', { name: 'Changes in src/app.js' }).waitFor();
    const keep = panel.getByRole('button', { name: 'Keep attempt 2' });
    await keep.focus();
    await page.keyboard.press('Enter');

    await page.getByRole('region', { name: 'Review', exact: true }).getByRole('article', { name: 'Task pick', exact: true }).waitFor();
    // Review now shows the kept attempt's diff too, below the two compared.
    await expect.poll(() => view.getByRole('group', { name: 'Changes in src/app.js' }).count(), { timeout: 15_000 }).toBe(3);
    await panel.getByRole('listitem', { name: 'Attempt 2' }).getByText('Kept').waitFor();
    const task = (await desk.api('GET', '/tasks/pick')).json;
    expect(task.attempts[1].chosen).toBe(true);
    expect(task.commit).toBe(task.attempts[1].commit);
    expect(git(desk.repo, 'show', `${task.commit}:src/app.js`)).toBe('export const greet = () => "hi";');
  });

  it('shows the judge\'s recommendation in the Review panel, marked as the judge\'s, and names the attempt kept', { timeout: 120_000 }, async () => {
    desk = await serveDesk();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.setDefaultTimeout(20_000);
    await page.goto(desk.boardUrl);
    await page.getByRole('button', { name: 'New task' }).click();
    const form = page.getByRole('dialog', { name: 'New task' });
    // The scripted judge acts its prompt out, which ends with the task's: this line is its answer.
    await form.getByLabel('Prompt').fill('Greet\nwrite src/app.js export const greet = () => "hey";\nsay RECOMMEND: attempt-2 - it greets best');
    await form.getByLabel('Task id').fill('judged');
    await form.getByText('Several attempts').click();
    await form.getByLabel('Runs of Scripted agent').fill('2');
    await form.getByLabel('Judge').selectOption('scripted');
    await form.getByRole('button', { name: 'Create task' }).click();
    await form.waitFor({ state: 'detached' });

    const card = page.getByRole('region', { name: 'Needs input', exact: true }).getByRole('article', { name: 'Task judged', exact: true });
    await card.waitFor({ timeout: 30_000 });
    await card.focus();
    await page.keyboard.press('Enter');
    const view = page.getByRole('region', { name: 'Task judged' });
    await view.getByRole('tab', { name: 'Changes' }).click();
    const panel = view.getByRole('region', { name: 'Attempts' });
    const judged = panel.getByRole('note', { name: 'The judge\'s recommendation' });
    await judged.waitFor();
    expect(await judged.textContent()).toBe('Judge (scripted) recommends attempt 2: it greets best');
    expect(await panel.getByRole('listitem', { name: 'Attempt 2' }).textContent()).toContain('Judge\'s pick');
    expect(await panel.getByRole('listitem', { name: 'Attempt 1' }).textContent()).not.toContain('Judge\'s pick');
    expect(await panel.locator('.attempts-question').textContent()).toMatch(/^The judge \(scripted\) recommends attempt 2: it greets best/);
    // The judge's own turn is no card.
    expect(await page.getByRole('article', { name: 'Task judged~judge', exact: true }).count()).toBe(0);

    // The person still chooses, and may choose otherwise.
    const keep = panel.getByRole('button', { name: 'Keep attempt 1' });
    await keep.focus();
    await page.keyboard.press('Enter');
    await page.getByText('Kept attempt 1; the other attempts\' branches are archived.').waitFor();
    await page.getByRole('region', { name: 'Review', exact: true }).getByRole('article', { name: 'Task judged', exact: true }).waitFor();
    const task = (await desk.api('GET', '/tasks/judged')).json;
    expect(task.recommendation).toEqual({ n: 2, reason: 'it greets best', by: 'scripted' });
    expect(task.attempts[0].chosen).toBe(true);
  });
});
