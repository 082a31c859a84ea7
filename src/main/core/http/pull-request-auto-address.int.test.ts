// Hands-free feedback (`forge.autoAddress`) and rate limits, from a real desk whose poller reads stand-ins of GitHub's
// and GitLab's APIs: new feedback of the configured kinds starts a turn by itself, at most `forge.maxAutoTurns` times,
// and the activity says why; a forge that limits the rate is asked nothing until it says.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { git, isolateGitConfig } from '../git/git-test-fixture';
import { taskEvents, waitForEvent, type Desk } from '../test-support/desk-harness';
import { completedTask, startForgeDesk, type ForgeDesk } from '../test-support/forge-desk';

const POLL_MS = 150;

async function logTexts(d: Desk, id: string): Promise<string[]> {
  return (await taskEvents(d, id)).flatMap((event) => (event.type === 'log' ? [event.text] : []));
}

/** Resolves once the task's activity holds a line matching `pattern`. */
async function waitForLog(d: Desk, id: string, pattern: RegExp, timeoutMs = 20_000): Promise<void> {
  if ((await logTexts(d, id)).some((text) => pattern.test(text))) return;
  await waitForEvent(d, id, ({ event }) => event.type === 'log' && pattern.test(event.text), timeoutMs);
}

/** Lets the poller read at least `runs` more times. */
async function pollsPass(desk: ForgeDesk, runs: number): Promise<void> {
  const reads = () => desk.forge.calls.filter((call) => call.method === 'GET' && /\/(pulls|merge_requests)\/\d+$/.test(call.path)).length;
  const target = reads() + runs;
  while (reads() < target) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe.each(['github', 'gitlab'] as const)('forge.autoAddress on %s', (kind) => {
  let desk: ForgeDesk | undefined;
  let restoreGit: () => void = () => {};
  beforeEach(() => { restoreGit = isolateGitConfig(); });
  afterEach(async () => {
    await desk?.close();
    desk = undefined;
    restoreGit();
  });

  async function openedTask(config: object, id: string): Promise<{ desk: ForgeDesk; number: number; commit: string; branch: string }> {
    desk = await startForgeDesk(kind, { pollMs: POLL_MS, files: { 'README.md': '# Widgets\n', '.desk/config.json': JSON.stringify({ forge: config }) } });
    const task = await completedTask(desk.d, id);
    const opened = await desk.d.api('POST', `/api/tasks/${id}/pull-request`);
    expect(opened.status, opened.text).toBe(201);
    return { desk, number: opened.json.number, ...task };
  }

  it('"all" addresses a new comment by itself, pushes the commit, says why, and stops at forge.maxAutoTurns', async () => {
    const { desk: d, number, commit } = await openedTask({ autoAddress: 'all', maxAutoTurns: 1 }, 'auto');
    d.forge.comment(number, { author: 'ana', kind: 'line', path: 'auto.txt', line: 1, body: 'write auto.txt reviewed' });

    const addressed = await waitForEvent(d.d, 'auto', ({ event }) => event.type === 'task' && Boolean(event.task.pullRequest?.feedback?.comments[0]?.addressedIn), 30_000);
    const pushed = addressed.event.type === 'task' ? addressed.event.task.pullRequest?.feedback?.comments[0]?.addressedIn : undefined;
    expect(pushed).not.toBe(commit);
    expect(git(d.bare, 'rev-parse', 'refs/heads/' + (await d.d.api('GET', '/tasks/auto')).json.branch)).toBe(pushed);
    expect(git(d.d.repo, 'show', `${pushed}:auto.txt`)).toBe('reviewed');
    expect(await logTexts(d.d, 'auto')).toContainEqual(expect.stringContaining('forge.autoAddress "all" started turn 1 of 1 by itself, for new feedback on the'));

    d.forge.comment(number, { author: 'bo', kind: 'general', body: 'write more.txt please' });
    await waitForLog(d.d, 'auto', /New feedback waits for a person: forge.autoAddress started the 1 turns forge.maxAutoTurns allows/);
    await pollsPass(d, 2);
    const task = (await d.d.api('GET', '/tasks/auto')).json;
    expect(task.turns).toHaveLength(2);
    expect(task.pullRequest).toMatchObject({ autoTurns: 1, feedback: { unaddressed: 1 } });
  });

  it('"checks" leaves comments to a person and takes on each failed check once, never the same one twice', async () => {
    const { desk: d, number } = await openedTask({ autoAddress: 'checks', maxAutoTurns: 3 }, 'ci');
    d.forge.comment(number, { author: 'ana', kind: 'general', body: 'write comment.txt no' });
    await pollsPass(d, 3);
    expect((await d.d.api('GET', '/tasks/ci')).json.turns).toHaveLength(1);

    if (kind === 'github') d.forge.setChecks([{ name: 'ci', status: 'completed', conclusion: 'failure', output: { title: 'red', summary: 'write ci.txt green' } }]);
    else {
      d.forge.setChecks('failed');
      d.forge.setFailedJobs([{ name: 'ci', stage: 'test', failure_reason: 'script_failure' }]);
    }
    await waitForLog(d.d, 'ci', /forge\.autoAddress "checks" started turn 1 of 3 by itself, for new feedback on the .*: 1 failed check\./);
    if (kind === 'github') {
      // The scripted agent follows the check's summary: the turn changes a file, and its commit goes to the request.
      await waitForLog(d.d, 'ci', /^Pushed [0-9a-f]{12} to the pull request #1; it addresses 1 failed check\./);
      // The stand-in's check fails on the new head too: new feedback, a second turn, which finds nothing to change.
      await waitForLog(d.d, 'ci', /started turn 2 of 3/);
    }
    // GitLab's reason is no instruction, and the second GitHub turn finds ci.txt green already: nothing to push.
    await waitForLog(d.d, 'ci', /changed nothing, so nothing was pushed/);
    await pollsPass(d, 3);
    const task = (await d.d.api('GET', '/tasks/ci')).json;
    const autoTurns = kind === 'github' ? 2 : 1;
    // Feedback an automatic turn took on is not taken on again, however often the poller reads it.
    expect(task.turns).toHaveLength(1 + autoTurns);
    expect(task.pullRequest.autoTurns).toBe(autoTurns);
    expect(task.turns[1].prompt).toContain('- ci:');
    expect(task.turns[1].prompt).not.toContain('comment.txt');
  });
});

describe.each(['github', 'gitlab'] as const)('rate limits on %s', (kind) => {
  let desk: ForgeDesk | undefined;
  let restoreGit: () => void = () => {};
  beforeEach(() => { restoreGit = isolateGitConfig(); });
  afterEach(async () => {
    await desk?.close();
    desk = undefined;
    restoreGit();
  });

  const limits = [
    { status: 429, headers: (): Record<string, string> => ({ 'retry-after': '2' }) },
    { status: 403, headers: (): Record<string, string> => (kind === 'github'
      ? { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 2) }
      : { 'ratelimit-remaining': '0', 'ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 2) }) },
  ];
  it.each(limits)('asks the forge nothing after a $status that limits the rate until its headers say, then reads again', async ({ status, headers }) => {
    desk = await startForgeDesk(kind, { pollMs: 100 });
    await completedTask(desk.d, 'limited');
    expect((await desk.d.api('POST', '/api/tasks/limited/pull-request')).status).toBe(201);
    const callsBefore = desk.forge.calls.length;
    desk.forge.answerNext({ status, body: JSON.stringify({ message: 'API rate limit exceeded' }), headers: headers() });
    while (desk.forge.calls.length === callsBefore) await new Promise((resolve) => setTimeout(resolve, 20));
    const limitedAt = Date.now();
    const callsWhenLimited = desk.forge.calls.length;

    const refresh = await desk.d.api('POST', '/api/tasks/limited/pull-request/refresh');
    expect(refresh.status, refresh.text).toBe(429);
    expect(refresh.json.code).toBe('forge_rate_limited');
    expect(Number(refresh.headers['retry-after'])).toBeGreaterThan(0);

    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(desk.forge.calls.length).toBe(callsWhenLimited);
    while (desk.forge.calls.length === callsWhenLimited) await new Promise((resolve) => setTimeout(resolve, 50));
    // The reset is whole seconds away, so the poller waited a second at least (and not much longer than asked).
    expect(Date.now() - limitedAt).toBeGreaterThanOrEqual(1000);
    expect(Date.now() - limitedAt).toBeLessThan(6000);
    const texts = await logTexts(desk.d, 'limited');
    expect(texts.filter((text) => text.includes('rate')).length).toBeLessThanOrEqual(1);
  });
});
