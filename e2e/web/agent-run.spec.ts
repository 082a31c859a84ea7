// What a person sees of an agent's run on the board, in a real browser against `npm run serve` with the scripted agent:
// the agent's own name and version, paths relative to the worktree, what a question asks about, tokens, live changes.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isolateGitConfig } from '../../src/main/core/git/git-test-fixture';
import { browserUnavailable, keepScreenshot, launchBrowser } from './support/browser';
import { serveDesk, type ServedDesk } from './support/desk-server';

const unavailable = browserUnavailable();
let browser: Browser;
let desk: ServedDesk | undefined;
let page: Page | undefined;
let restoreGit: () => void;

describe.skipIf(unavailable !== undefined)(`an agent's run on the board${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  beforeAll(async () => {
    restoreGit = isolateGitConfig();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    restoreGit();
  });
  afterEach(async (context) => {
    if (page) await keepScreenshot(page, `agent-run-${context.task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`);
    await page?.close();
    await desk?.stop();
    page = undefined;
    desk = undefined;
  });

  async function openBoard(options: Parameters<typeof serveDesk>[0] = {}): Promise<{ p: Page; served: ServedDesk }> {
    desk = await serveDesk(options);
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(15_000);
    await page.goto(desk.boardUrl);
    await page.getByRole('region', { name: 'Queued' }).waitFor();
    return { p: page, served: desk };
  }

  const column = (p: Page, name: string) => p.getByRole('region', { name, exact: true });
  const cardIn = (p: Page, name: string, id: string) => column(p, name).getByRole('article', { name: `Task ${id}`, exact: true });
  const viewOf = (p: Page, id: string): Locator => p.getByRole('region', { name: `Task ${id}` });

  /** Opens the task once it waits for an answer. */
  async function openWaiting(p: Page, id: string): Promise<Locator> {
    await cardIn(p, 'Needs input', id).waitFor({ timeout: 30_000 });
    await cardIn(p, 'Needs input', id).click();
    return viewOf(p, id);
  }

  /** Each test runs an agent through real git and a served desk; on a busy machine that takes longer than a unit test. */
  const SLOW = 120_000;

  it("names the agent on its card and in the agent filter by the name and version it gave", async () => {
    const { p, served } = await openBoard();
    await served.api('POST', '/', { id: 'named', prompt: 'say hello' });
    const card = cardIn(p, 'Review', 'named');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.textContent()).toContain('Scripted agent 0.1.0');
    const filter = p.getByRole('combobox', { name: 'Agent filter' });
    expect(await filter.getByRole('option').allTextContents()).toContain('Scripted agent 0.1.0');
  }, SLOW);

  it("shows an announced edit's question with its diff, and the tool call, with paths relative to the worktree", async () => {
    // Edits ask a person here, whichever way the desk reads a request that names only its tool call.
    const { p, served } = await openBoard({ policy: { version: 1, defaults: { capabilities: { edit: 'ask', other: 'ask' } } } });
    await served.api('POST', '/', { id: 'edits', prompt: 'ask-write notes/hello.txt Hello there' });
    const view = await openWaiting(p, 'edits');
    const { worktreePath } = (await served.api('GET', '/tasks/edits')).json;

    const change = view.getByRole('group', { name: 'Proposed change' });
    await change.waitFor();
    expect(await change.locator('figcaption').textContent()).toBe('notes/hello.txt');
    expect(await change.textContent()).toContain('+ Hello there');
    // The agent titled its tool call with the absolute path; the board shows it relative, there and in the question.
    const events = (await served.api('GET', '/api/tasks/edits/events')).json.events as { event: { type: string; update?: { title?: string } } }[];
    expect(events.map((e) => e.event.update?.title)).toContain(`Write ${worktreePath}/notes/hello.txt`);
    const tool = view.getByRole('log', { name: 'Activity' }).locator('.tool').filter({ hasText: 'notes/hello.txt' });
    expect(await tool.locator('.tool-title').textContent()).toBe('Write notes/hello.txt');
    expect(await view.getByRole('group', { name: 'The agent asks permission' }).textContent()).not.toContain(worktreePath);
  }, SLOW);

  it('shows the command a question is about and where it runs', async () => {
    const { p, served } = await openBoard();
    await served.api('POST', '/', { id: 'runs', prompt: 'ask-run echo hi > out.txt' });
    const view = await openWaiting(p, 'runs');
    const command = view.getByRole('group', { name: 'Command to run' });
    await command.waitFor();
    expect(await command.locator('code').textContent()).toBe("sh -c 'echo hi > out.txt'");
    expect(await command.textContent()).toContain("in the task's worktree");
  }, SLOW);

  it("shows each turn's tokens and the task's total in the activity", async () => {
    const { p, served } = await openBoard();
    await served.api('POST', '/', { id: 'counted', prompt: 'usage 1000 200\nsay half way\nusage 500 100\nsay done' });
    await cardIn(p, 'Review', 'counted').waitFor({ timeout: 30_000 });
    await cardIn(p, 'Review', 'counted').click();
    const view = viewOf(p, 'counted');
    const turn = view.getByRole('note', { name: 'Tokens of turn 1' });
    await turn.waitFor();
    expect(await turn.textContent()).toBe('Turn 1: 1,500 in · 300 out · 1,800 tokens · context 1,800 of 200,000');
    expect(await view.getByRole('note', { name: 'Tokens of this task' }).textContent()).toContain('1,800 tokens');
  }, SLOW);

  it('shows the file the agent wrote in Changes while its question is open', async () => {
    const { p, served } = await openBoard();
    await served.api('POST', '/', { id: 'live', prompt: 'write hello.txt hi there\nask May I go on?\nwrite later.txt after' });
    const view = await openWaiting(p, 'live');
    await view.getByRole('tab', { name: 'Changes' }).click();
    await view.getByRole('group', { name: 'Changes in hello.txt' }).waitFor();
    expect(await view.getByText('This task changed no files.').count()).toBe(0);
    await view.getByRole('note').filter({ hasText: 'The agent is not done' }).waitFor();

    // Once answered, the agent writes on; Refresh shows it without waiting for the commit.
    await served.api('POST', '/tasks/live/input', { optionId: 'allow' });
    await cardIn(p, 'Review', 'live').waitFor({ timeout: 30_000 });
    await view.getByRole('button', { name: 'later.txt' }).first().waitFor();
  }, SLOW);
});
