// The board in a real browser against `npm run serve` with the scripted agent: what a person sees and does.
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { git, isolateGitConfig } from '../../src/main/core/git/git-test-fixture';
import { browserUnavailable, keepScreenshot, launchBrowser } from './support/browser';
import { serveDesk, type ServedDesk } from './support/desk-server';

const unavailable = browserUnavailable();
let browser: Browser;
let desk: ServedDesk;
let page: Page;
let restoreGit: () => void;

describe.skipIf(unavailable !== undefined)(`the board${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  beforeAll(async () => {
    restoreGit = isolateGitConfig();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    restoreGit();
  });

  async function openBoard(options: Parameters<typeof serveDesk>[0] = {}): Promise<Page> {
    desk = await serveDesk(options);
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // Fail a step with Playwright's own message (which element it waited for) before the test's time runs out.
    page.setDefaultTimeout(12_000);
    await page.goto(desk.boardUrl);
    await page.getByRole('region', { name: 'Queued' }).waitFor();
    return page;
  }
  afterEach(async (context) => {
    if (page) await keepScreenshot(page, context.task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase());
    await page?.close();
    await desk?.stop();
  });

  const card = (id: string) => page.getByRole('article', { name: `Task ${id}`, exact: true });
  const column = (name: string) => page.getByRole('region', { name, exact: true });

  it('shows a task submitted over HTTP and moves it Queued → Working → Review live', async () => {
    await openBoard();
    await desk.api('POST', '/', { id: 'gate', prompt: 'sleep 60000' });
    await desk.api('POST', '/', { id: 'live', prompt: 'Write the notes\nsleep 700\nwrite notes.txt hello', dependencies: ['gate'] });
    await column('Queued').getByRole('article', { name: 'Task live', exact: true }).waitFor();
    await expect.poll(() => card('live').textContent()).toContain('waits for gate');
    await desk.api('DELETE', '/gate');
    await desk.api('PUT', '/tasks/live/dependencies', { dependencies: [] });
    await column('Working').getByRole('article', { name: 'Task live', exact: true }).waitFor();
    await column('Review').getByRole('article', { name: 'Task live', exact: true }).waitFor();
    expect(await card('live').textContent()).toContain('Write the notes');
  });

  it('answers a permission question in the chat and the task goes on', async () => {
    await openBoard();
    await desk.api('POST', '/', { id: 'asks', prompt: 'ask May I add a changelog?\nwrite CHANGELOG.md First entry' });
    await column('Needs input').getByRole('article', { name: 'Task asks', exact: true }).waitFor();
    await card('asks').click();
    const view = page.getByRole('region', { name: 'Task asks' });
    await view.getByText('May I add a changelog?').first().waitFor();
    await view.getByRole('button', { name: 'Allow' }).click();
    await column('Review').getByRole('article', { name: 'Task asks', exact: true }).waitFor();
    const task = (await desk.api('GET', '/tasks/asks')).json;
    expect(git(desk.repo, 'show', `${task.commit}:CHANGELOG.md`)).toBe('First entry');
  });

  it('shows the diff and Approve merges it into the base branch', async () => {
    await openBoard();
    await desk.api('POST', '/', { id: 'change', prompt: 'Greet politely\nwrite src/app.js export const greet = () => "good day";' });
    await column('Review').getByRole('article', { name: 'Task change', exact: true }).waitFor();
    await card('change').click();
    const view = page.getByRole('region', { name: 'Task change' });
    await view.getByRole('tab', { name: 'Changes' }).click();
    await view.getByRole('group', { name: 'Changes in src/app.js' }).waitFor();
    await view.getByText('good day').filter({ visible: true }).first().waitFor();
    await view.getByRole('button', { name: 'Side by side' }).click();
    await view.getByText('hello').filter({ visible: true }).first().waitFor();
    await view.getByRole('button', { name: 'Approve' }).click();
    await column('Done').getByRole('article', { name: 'Task change', exact: true }).waitFor();
    expect(git(desk.repo, 'show', 'main:src/app.js')).toBe('export const greet = () => "good day";');
  });

  it('links tasks by dragging one card onto another, and refuses a cycle on screen', async () => {
    await openBoard();
    await desk.api('POST', '/', { id: 'first', prompt: 'say first', dependencies: ['hold'] });
    await desk.api('POST', '/', { id: 'second', prompt: 'say second', dependencies: ['hold'] });
    await card('second').waitFor();
    await card('second').dragTo(card('first'));
    await expect.poll(async () => (await desk.api('GET', '/tasks/second')).json.dependencies).toEqual(['hold', 'first']);
    await expect.poll(() => card('second').textContent()).toContain('waits for first');
    await card('first').dragTo(card('second'));
    const alert = page.getByRole('alert');
    await alert.filter({ hasText: 'cycle' }).waitFor();
    expect(await alert.textContent()).toMatch(/first → second → first/);
    expect((await desk.api('GET', '/tasks/first')).json.dependencies).toEqual(['hold']);
  });

  it('sends a follow-up prompt that makes a second commit', async () => {
    await openBoard();
    await desk.api('POST', '/', { id: 'more', prompt: 'Start the notes\nwrite notes.txt one' });
    await column('Review').getByRole('article', { name: 'Task more', exact: true }).waitFor();
    const first = (await desk.api('GET', '/tasks/more')).json.commit;
    await card('more').click();
    const view = page.getByRole('region', { name: 'Task more' });
    await view.getByRole('textbox', { name: 'Follow-up prompt' }).fill('Add a second line\nappend notes.txt two');
    await view.getByRole('button', { name: 'Send follow-up' }).click();
    await expect.poll(async () => (await desk.api('GET', '/tasks/more')).json.turns.at(-1)?.status, { timeout: 20_000 }).toBe('completed');
    const second = (await desk.api('GET', '/tasks/more')).json.commit;
    expect(second).not.toBe(first);
    expect(git(desk.repo, 'rev-parse', `${second}^`)).toBe(first);
    expect(git(desk.repo, 'show', `${second}:notes.txt`)).toBe('one\ntwo');
  });

  it('marks a task whose agent runs without the sandbox, and Settings says where agents run', async () => {
    await openBoard({ policy: { version: 1, defaults: { sandbox: 'off' } } });
    await desk.api('POST', '/', { id: 'bare', prompt: 'write notes.txt unconfined' });
    await column('Review').getByRole('article', { name: 'Task bare', exact: true }).waitFor();
    expect(await card('bare').getByText('unsandboxed').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Settings' }).click();
    const sandbox = page.getByRole('group', { name: 'Agent sandbox' });
    await sandbox.waitFor();
    const settings = (await desk.api('GET', '/api/settings')).json;
    expect(await sandbox.textContent()).toContain(settings.sandbox.available ? 'Agents run in' : 'Agents run unsandboxed');
  });
});
