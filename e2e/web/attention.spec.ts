// The board as a daily tool, in a real browser against `serve` with the scripted agent and real git: a question
// is noticed (tab title, notification) and answered from the keyboard; the conversation reads as bubbles; cards
// say how long the agent worked, not how long the task sat.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isolateGitConfig } from '../../src/main/core/git/git-test-fixture';
import { browserUnavailable, keepScreenshot, launchBrowser } from './support/browser';
import { serveDesk, type ServedDesk } from './support/desk-server';

const unavailable = browserUnavailable();
let browser: Browser;
let desk: ServedDesk | undefined;
let context: BrowserContext | undefined;
let page: Page;
let restoreGit: () => void;

interface Recorded { title: string; body?: string }
declare global {
  interface Window { recordedNotifications?: Recorded[] }
}

/** Every Notification the page makes is recorded, and the page behaves as if the person looked at another window. */
function recordNotifications(): void {
  const Real = window.Notification;
  const recorded: Recorded[] = [];
  window.recordedNotifications = recorded;
  class Recording extends Real {
    constructor(title: string, options?: NotificationOptions) {
      super(title, options);
      recorded.push({ title, ...(options?.body !== undefined && { body: options.body }) });
    }
  }
  Object.defineProperty(window, 'Notification', { value: Recording, configurable: true, writable: true });
  Document.prototype.hasFocus = () => false;
}

describe.skipIf(unavailable !== undefined)(`attention, conversation and time${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  beforeAll(async () => {
    restoreGit = isolateGitConfig();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    restoreGit();
  });
  afterEach(async () => {
    await context?.close();
    await desk?.stop();
  });

  async function openBoard(): Promise<Page> {
    desk = await serveDesk();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['notifications'], { origin: new URL(desk.url).origin });
    await context.addInitScript(recordNotifications);
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(desk.boardUrl);
    await page.getByRole('region', { name: 'Queued' }).waitFor();
    return page;
  }

  /** The page as the person sees it, in the light and the dark scheme. */
  async function shoot(name: string): Promise<void> {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await keepScreenshot(page, `${name}-${colorScheme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }

  const card = (id: string) => page.getByRole('article', { name: `Task ${id}`, exact: true });
  const column = (name: string) => page.getByRole('region', { name, exact: true });
  const api = () => desk as ServedDesk;

  it('raises the tab title and a notification for a question, which is answered from the keyboard', { timeout: 60_000 }, async () => {
    await openBoard();
    expect(await page.title()).toBe('Assignment Desk');
    await page.getByRole('button', { name: 'Notifications off' }).click();
    await page.getByRole('button', { name: 'Notifications on' }).waitFor();

    await api().api('POST', '/', { id: 'badge', prompt: 'question Which colour should the badge be?\nsay Painted it' });
    await column('Needs input').getByRole('article', { name: 'Task badge', exact: true }).waitFor();
    await expect.poll(() => page.title()).toBe('(1) Assignment Desk');
    await expect.poll(() => page.evaluate(() => window.recordedNotifications)).toEqual([
      expect.objectContaining({ title: expect.stringContaining('needs input'), body: 'Which colour should the badge be?' }),
    ]);
    expect(await page.getByRole('button', { name: /Needs you/ }).textContent()).toContain('1');
    await shoot('attention-question-board');

    // Keyboard only: to the card, open it, type the answer, send.
    await page.locator('body').press('j');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Task badge');
    await page.keyboard.press('Enter');
    const view = page.getByRole('region', { name: 'Task badge' });
    const answer = view.getByRole('textbox', { name: /Which colour/ });
    await expect.poll(() => answer.evaluate((element) => element === document.activeElement)).toBe(true);
    await shoot('attention-question-task');
    await page.keyboard.type('green');
    await page.keyboard.press('Control+Enter');

    await column('Review').getByRole('article', { name: 'Task badge', exact: true }).waitFor();
    await view.locator('[data-who="you"]').filter({ hasText: 'green' }).waitFor();
    // Still one task needing the person: now for its review.
    expect(await page.title()).toBe('(1) Assignment Desk');
  });

  it('leaves shortcut keys alone while the person types in a field', async () => {
    await openBoard();
    const search = page.getByRole('textbox', { name: 'Search tasks' });
    await page.locator('body').press('/');
    await expect.poll(() => search.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.type('new');
    expect(await search.inputValue()).toBe('new');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await search.fill('');
    await search.blur();
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.press('n');
    await page.getByRole('dialog', { name: 'New task' }).waitFor();
  });

  it('shows the conversation as bubbles: the prompt and follow-up as the person’s, each agent message apart', { timeout: 60_000 }, async () => {
    await openBoard();
    await api().api('POST', '/', { id: 'chat', prompt: 'say Added the readme badge\nsay I need one detail' });
    await column('Review').getByRole('article', { name: 'Task chat', exact: true }).waitFor();
    await card('chat').click();
    const view = page.getByRole('region', { name: 'Task chat' });
    const log = view.getByRole('log', { name: 'Activity' });
    const first = [
      'you: say Added the readme badge\nsay I need one detail',
      'agent: Added the readme badge',
      'agent: I need one detail',
    ];
    const second = ['you: Turn 2 say Green it is', 'agent: Green it is'];
    /** The bubbles shown now (the list is virtualized: those near the scroll position), as `who: text`. */
    const bubbles = async (wanted: string[]) => (await view.locator('[data-who]').evaluateAll((elements) => elements.map((element) => {
      const who = element.getAttribute('data-who');
      const text = who === 'you'
        ? `${element.querySelector('.msg-turn')?.textContent ?? ''} ${element.querySelector('p')?.textContent ?? ''}`.trim()
        : (element.textContent ?? '').trim();
      return `${who}: ${text}`;
    }))).filter((bubble) => wanted.includes(bubble));
    /** Scrolls the log to its start as a person does (the log stops following new rows once they scroll). */
    const scrollToStart = async () => {
      await log.hover();
      for (let i = 0; i < 10; i += 1) await page.mouse.wheel(0, -2000);
    };
    await expect.poll(() => bubbles(first)).toEqual(first);

    const followUp = view.getByRole('textbox', { name: 'Follow-up prompt' });
    await followUp.fill('say Green it is');
    await followUp.press('Control+Enter');
    await expect.poll(async () => (await api().api('GET', '/tasks/chat')).json.turns.at(-1)?.status, { timeout: 20_000 }).toBe('completed');
    // The scripted agent cannot resume its session, so turn 2 also reads out the context the desk sends; between
    // the person's follow-up and the agent's answer the order holds.
    await expect.poll(() => bubbles(second), { timeout: 10_000 }).toEqual(second);
    await shoot('attention-conversation');

    // From the stored events alone: the same bubbles after a reload.
    await page.reload();
    await view.locator('[data-who="agent"]').filter({ hasText: 'Green it is' }).waitFor();
    await expect.poll(() => bubbles(second)).toEqual(second);
    await scrollToStart();
    await expect.poll(() => bubbles(first)).toEqual(first);
    await shoot('attention-conversation-start');
    expect(await view.getByText(/attempt/i).count()).toBe(0);
  });

  it('counts the time the agent worked, ticking while it works, not the time the card then sat in review', { timeout: 60_000 }, async () => {
    await openBoard();
    await api().api('POST', '/', { id: 'long', prompt: 'sleep 3000\nsay slow one done' });
    const working = column('Working').getByRole('article', { name: 'Task long', exact: true });
    await working.waitFor();
    const first = await working.locator('.elapsed').textContent();
    await expect.poll(() => working.locator('.elapsed').textContent(), { timeout: 5_000 }).not.toBe(first);
    await column('Review').getByRole('article', { name: 'Task long', exact: true }).waitFor();

    // A 1-second task (plus the desk's worktree, sandbox and agent start), then 10 s idle in review.
    await api().api('POST', '/', { id: 'quick', prompt: 'sleep 1000\nsay quick one done' });
    await column('Review').getByRole('article', { name: 'Task quick', exact: true }).waitFor();
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const took = await card('quick').locator('.elapsed').textContent();
    const seconds = Number(/^took (\d+)s$/.exec(took ?? '')?.[1]);
    expect(seconds, took ?? '').toBeGreaterThanOrEqual(1);
    expect(seconds, took ?? '').toBeLessThan(10);
    expect(await card('quick').textContent()).toContain('quick one done');

    // After a reload the card still says what the agent did last, from the core.
    await page.reload();
    await card('quick').waitFor();
    expect(await card('quick').textContent()).toContain('quick one done');
    expect(await card('quick').locator('.elapsed').textContent()).toBe(took);
    await shoot('attention-time');
  });
});
