// Pull requests from the board in a real browser against `serve`, with the GitHub stand-in as GITHUB_API_URL and a
// bare repository as origin's push URL: the button, the link, the merged state and the one-click archive; the review
// feedback on the card and in the panel, its link into the diff, and "Address" pushing the agent's fix.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { git, isolateGitConfig } from '../../src/main/core/git/git-test-fixture';
import { FORGE_DESK_USER, FORGE_TEST_TOKEN, startForgeStandIn, type ForgeStandIn } from '../../src/main/core/test-support/forge-stand-in';
import { browserUnavailable, keepScreenshot, launchBrowser } from './support/browser';
import { serveDesk, type ServedDesk } from './support/desk-server';

const unavailable = browserUnavailable();
let browser: Browser;
let desk: ServedDesk | undefined;
let page: Page | undefined;
let forge: ForgeStandIn | undefined;
let restoreGit: () => void;

/** A task runs through real git and the scripted agent; on a busy machine that takes longer than a unit test. */
const SLOW = 120_000;

describe.skipIf(unavailable !== undefined)(`pull requests from the board${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
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
    await forge?.close();
    page = desk = forge = undefined;
  });

  it('opens a pull request from the review panel, links to it, and shows it merged with an Archive on the card', async () => {
    forge = await startForgeStandIn('github', 'acme/widgets');
    desk = await serveDesk({ env: { GH_TOKEN: FORGE_TEST_TOKEN, GITHUB_API_URL: forge.apiBase } });
    const bare = join(desk.repo, '..', 'remote.git');
    git(desk.repo, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
    git(desk.repo, 'remote', 'add', 'origin', 'https://github.com/acme/widgets.git');
    git(desk.repo, 'remote', 'set-url', '--push', 'origin', bare);
    await desk.api('POST', '/', { id: 'widget', prompt: 'Add the widget\nwrite widget.txt a widget' });
    await expect.poll(async () => (await desk!.api('GET', '/tasks/widget')).json.status, { timeout: 30_000 }).toBe('completed');

    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(15_000);
    await page.goto(desk.boardUrl);
    const card = page.getByRole('region', { name: 'Review', exact: true }).getByRole('article', { name: 'Task widget', exact: true });
    await card.click();
    const view = page.getByRole('region', { name: 'Task widget' });
    await view.getByRole('tab', { name: 'Changes' }).click();
    await view.getByRole('button', { name: 'Open pull request' }).click();

    const panel = view.getByRole('region', { name: 'Pull request' });
    const link = panel.getByRole('link', { name: 'PR #1' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe('https://github.com/acme/widgets/pull/1');
    expect(forge.requests[0]).toMatchObject({ head: (await desk.api('GET', '/tasks/widget')).json.branch, base: 'main', title: 'Add the widget' });
    await card.getByRole('link', { name: 'PR #1' }).waitFor();
    await keepScreenshot(page, 'pull-request-open');

    forge.merge(1);
    await panel.getByRole('button', { name: 'Refresh' }).click();
    await panel.getByText('merged', { exact: true }).waitFor();
    await card.getByText('merged', { exact: true }).waitFor();
    await keepScreenshot(page, 'pull-request-merged');

    await card.getByRole('button', { name: 'Archive task widget' }).click();
    await card.waitFor({ state: 'detached' });
    expect((await desk.api('GET', '/tasks/widget')).json.archived).toBe(true);
  }, SLOW);

  it('shows review feedback on the card and in the panel, links a comment to its diff line, and addresses the ticked ones', async () => {
    // Where the desk pushes, known once the desk has made its repository.
    const remote: { bare?: string } = {};
    forge = await startForgeStandIn('github', 'acme/widgets', { gitDir: () => remote.bare });
    desk = await serveDesk({ env: { GH_TOKEN: FORGE_TEST_TOKEN, GITHUB_API_URL: forge.apiBase }, files: { '.desk/config.json': JSON.stringify({ forge: { replyWhenAddressed: true } }) } });
    const bare = join(desk.repo, '..', 'remote.git');
    remote.bare = bare;
    git(desk.repo, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
    git(desk.repo, 'remote', 'add', 'origin', 'https://github.com/acme/widgets.git');
    git(desk.repo, 'remote', 'set-url', '--push', 'origin', bare);
    const lines = Array.from({ length: 40 }, (_, index) => `line ${index + 1}`).join('\\n');
    await desk.api('POST', '/', { id: 'greeter', prompt: `Greet people\nwrite greet.txt ${lines}` });
    await expect.poll(async () => (await desk!.api('GET', '/tasks/greeter')).json.status, { timeout: 30_000 }).toBe('completed');
    const before = (await desk.api('GET', '/tasks/greeter')).json;
    expect((await desk.api('POST', '/api/tasks/greeter/pull-request')).status).toBe(201);
    forge.comment(1, { author: 'ana', kind: 'line', path: 'greet.txt', line: 30, body: 'write greet.txt hello, reviewed' });
    forge.comment(1, { author: 'bo', kind: 'general', body: 'write unrelated.txt not now' });
    forge.comment(1, { author: FORGE_DESK_USER, kind: 'general', body: 'The desk said this' });
    forge.setChecks([{ name: 'unit tests', status: 'completed', conclusion: 'failure', output: { title: '1 test failed', summary: 'greet.txt should greet' } }]);
    expect((await desk.api('POST', '/api/tasks/greeter/pull-request/refresh')).status).toBe(200);

    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(15_000);
    await page.goto(desk.boardUrl);
    const card = page.getByRole('region', { name: 'Review', exact: true }).getByRole('article', { name: 'Task greeter', exact: true });
    await card.getByText('2 comments, 1 failed check').waitFor();
    await card.click();
    const view = page.getByRole('region', { name: 'Task greeter' });
    await view.getByRole('tab', { name: 'Changes' }).click();
    const feedback = view.getByRole('region', { name: 'Review feedback' });
    await feedback.getByText('greet.txt should greet').waitFor();
    expect(await feedback.getByText('The desk said this').count()).toBe(0);

    // Line 30 of the new file is below the fold of the diff: the link scrolls there and marks it.
    await feedback.getByRole('button', { name: 'Show line 30 of greet.txt' }).click();
    const focused = view.getByRole('group', { name: 'Changes in greet.txt' }).locator('[aria-current="location"]');
    await focused.waitFor();
    expect(await focused.textContent()).toContain('line 30');
    await keepScreenshot(page, 'review-feedback');

    await feedback.getByRole('checkbox', { name: 'Address the comment by bo' }).uncheck();
    await feedback.getByRole('textbox', { name: 'Note to the agent' }).fill('sleep 1500\nsay Done.');
    await feedback.getByRole('button', { name: 'Address' }).click();
    // CI goes green on the pushed head.
    forge.setChecks([{ name: 'unit tests', status: 'completed', conclusion: 'success' }]);
    // Wherever its card is meanwhile: queued in Review, then in Working while the agent runs.
    await page.getByRole('article', { name: 'Task greeter', exact: true }).getByText('Addressing feedback').waitFor();
    await feedback.getByRole('status').waitFor();

    // The fix is pushed: the card counts only the comment left unticked.
    await card.getByText('1 comment', { exact: true }).waitFor({ timeout: 30_000 });
    const after = (await desk.api('GET', '/tasks/greeter')).json;
    expect(after.commit).not.toBe(before.commit);
    expect(git(bare, 'rev-parse', `refs/heads/${before.branch}`)).toBe(after.commit);
    expect(after.turns.at(-1).prompt).toContain('ana (greet.txt, line 30):');
    expect(after.turns.at(-1).prompt).not.toContain('unrelated.txt');
    await feedback.getByText(`addressed in ${after.commit.slice(0, 8)}`).waitFor();
    expect(forge.comments.filter((comment) => comment.author === FORGE_DESK_USER && comment.body.includes(after.commit))).toHaveLength(1);
  }, SLOW);
});
