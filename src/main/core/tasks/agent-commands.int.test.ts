// Governance the desk enforces itself, end to end with the real scripted agent: every terminal command is
// decided by the policy (by default a person is asked, and nothing runs before the answer), and deleting or
// moving a file goes through a permission request the agent makes first.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../git/git-test-fixture';
import { desksPerTest, type Desk, type DeskOptions, kandevScriptedAgent, policyAllowing, scriptedAgent, taskEvents } from '../test-support/desk-harness';

const openDesk = desksPerTest();

const open = (options: DeskOptions = {}) => openDesk({ agents: [scriptedAgent(), kandevScriptedAgent()], ...options });
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads the fields it needs
const events = (d: Desk, id: string): Promise<any[]> => taskEvents(d, id);
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- audit records are read loosely
const audit = async (d: Desk, taskId: string): Promise<any[]> => (await d.api('GET', `/api/governance/requests?task=${taskId}`)).json.requests;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the task as GET /tasks/<id> answers it
const task = async (d: Desk, id: string): Promise<any> => (await d.api('GET', `/tasks/${id}`)).json;
const fileAt = (d: Desk, commit: string, path: string) => { try { return git(d.repo, 'show', `${commit}:${path}`); } catch { return undefined; } };
const said = async (d: Desk, id: string) => (await events(d, id)).filter((e) => e.type === 'agent' && e.update.kind === 'message').map((e) => e.update.text).join('\n');

/** The script line whose command leaves a marker file behind when (and only when) it runs. */
const MARK = 'run echo ran > marker.txt';
const MARK_LINE = 'sh -c echo ran > marker.txt';

async function waitingFor(d: Desk, id: string) {
  await d.waitForStatus(id, 'awaiting-input');
  const waiting = await task(d, id);
  expect(waiting.openQuestions).toHaveLength(1);
  // `files`: where the task's files are seen (a layer's worktree folder holds nothing but its link: docs/git.md).
  return { worktree: waiting.worktreePath as string, files: await d.core.worktreeView(id) as string, question: waiting.openQuestions[0] };
}

describe('a terminal command under the built-in policy', () => {
  it('waits for a person, runs nothing before the answer, and runs once allowed', async () => {
    const d = await open();
    await d.api('POST', '/', { id: 'cmd', prompt: MARK });
    const { worktree, question } = await waitingFor(d, 'cmd');
    expect(question).toMatchObject({
      kind: 'permission', prompt: `Run ${MARK_LINE}`,
      options: [{ optionId: 'allow', name: 'Allow' }, { optionId: 'reject', name: 'Reject' }],
      toolCall: { kind: 'execute', rawInput: { command: MARK_LINE } },
    });
    expect(existsSync(join(worktree, 'marker.txt'))).toBe(false);
    expect((await events(d, 'cmd')).some((e) => e.type === 'terminal-started')).toBe(false);

    expect((await d.api('POST', '/tasks/cmd/input', { optionId: 'allow' })).status).toBe(200);
    await d.waitForStatus('cmd', 'completed');
    expect(fileAt(d, (await task(d, 'cmd')).commit, 'marker.txt')).toBe('ran');
    const records = await audit(d, 'cmd');
    expect(records).toEqual([expect.objectContaining({
      requestType: 'APPROVAL', action: 'execute', command: MARK_LINE, decision: 'escalated', rule: 'needs-person',
      state: 'completed', outcome: 'allowed', answeredBy: 'person',
    })]);
  });

  it('never runs when a person rejects it, and the agent hears why', async () => {
    const d = await open();
    await d.api('POST', '/', { id: 'nope', prompt: `${MARK}\nsay carried on` });
    const { worktree } = await waitingFor(d, 'nope');
    expect((await d.api('POST', '/tasks/nope/input', { optionId: 'reject' })).status).toBe(200);
    await d.waitForStatus('nope', 'completed');
    expect(existsSync(join(worktree, 'marker.txt'))).toBe(false);
    expect(fileAt(d, (await task(d, 'nope')).commit, 'marker.txt')).toBeUndefined();
    expect((await events(d, 'nope')).some((e) => e.type === 'terminal-started')).toBe(false);
    expect(await said(d, 'nope')).toMatch(/run failed: .*a person rejected it[\s\S]*carried on/);
    expect(await audit(d, 'nope')).toEqual([expect.objectContaining({ action: 'execute', decision: 'escalated', state: 'completed', outcome: 'rejected', answeredBy: 'person' })]);
  });

  it('never starts when the task is cancelled while it waits', async () => {
    const d = await open();
    await d.api('POST', '/', { id: 'gone', prompt: MARK });
    const { worktree } = await waitingFor(d, 'gone');
    expect((await d.api('DELETE', '/gone')).json).toMatchObject({ status: 'cancelled' });
    expect((await events(d, 'gone')).find((e) => e.type === 'question-answered')).toMatchObject({ answer: { cancelled: true } });
    expect((await events(d, 'gone')).some((e) => e.type === 'terminal-started')).toBe(false);
    expect(existsSync(join(worktree, 'marker.txt'))).toBe(false);
    expect(await audit(d, 'gone')).toEqual([expect.objectContaining({ action: 'execute', state: 'completed', outcome: 'cancelled' })]);
  });

  it('is asked once when the agent asked permission for the same command first', async () => {
    const d = await open();
    await d.api('POST', '/', { id: 'asked', prompt: 'ask-run echo ran > marker.txt' });
    const { worktree, question } = await waitingFor(d, 'asked');
    expect(question).toMatchObject({ prompt: `echo ran > marker.txt (runs: ${MARK_LINE})`, toolCall: { kind: 'execute', rawInput: { command: 'sh', args: ['-c', 'echo ran > marker.txt'] } } });
    expect(existsSync(join(worktree, 'marker.txt'))).toBe(false);
    expect((await d.api('POST', '/tasks/asked/input', { optionId: 'allow' })).status).toBe(200);
    await d.waitForStatus('asked', 'completed');

    const recorded = await events(d, 'asked');
    expect(recorded.filter((e) => e.type === 'question-opened')).toHaveLength(1);
    expect(recorded.some((e) => e.type === 'terminal-started')).toBe(true);
    expect(fileAt(d, (await task(d, 'asked')).commit, 'marker.txt')).toBe('ran');
    expect(await audit(d, 'asked')).toEqual([expect.objectContaining({ action: 'execute', command: MARK_LINE, outcome: 'allowed', answeredBy: 'person' })]);
  });

  it('asks again for a command other than the one a person allowed', async () => {
    const d = await open();
    await d.api('POST', '/', { id: 'other', prompt: 'ask-run echo first > first.txt\nrun echo second > marker.txt' });
    await waitingFor(d, 'other');
    expect((await d.api('POST', '/tasks/other/input', { optionId: 'allow' })).status).toBe(200);
    // The first answer closes the first question; the second command then opens its own.
    await expect.poll(async () => (await task(d, 'other')).openQuestions?.[0]?.prompt).toBe('Run sh -c echo second > marker.txt');
    const { files } = await waitingFor(d, 'other');
    expect(existsSync(join(files, 'first.txt'))).toBe(true);
    expect(existsSync(join(files, 'marker.txt'))).toBe(false);
    expect((await d.api('POST', '/tasks/other/input', { optionId: 'reject' })).status).toBe(200);
    await d.waitForStatus('other', 'completed');
    expect(existsSync(join(files, 'marker.txt'))).toBe(false);
  });
});

describe('a terminal command under a policy that decides alone', () => {
  it('runs without a question when execute is allowed', async () => {
    const d = await open({ policy: policyAllowing('execute') });
    await d.api('POST', '/', { id: 'free', prompt: MARK });
    await d.waitForStatus('free', 'completed');
    expect((await events(d, 'free')).some((e) => e.type === 'question-opened')).toBe(false);
    expect(fileAt(d, (await task(d, 'free')).commit, 'marker.txt')).toBe('ran');
    expect(await audit(d, 'free')).toEqual([expect.objectContaining({
      action: 'execute', command: MARK_LINE, decision: 'approved', rule: 'capability-allowed', state: 'completed', outcome: 'allowed',
    })]);
  });

  it('is refused without a question when execute is denied', async () => {
    const d = await open({ policy: { version: 1, defaults: { capabilities: { execute: 'deny' } } } });
    await d.api('POST', '/', { id: 'denied', prompt: MARK });
    await d.waitForStatus('denied', 'completed');
    const done = await task(d, 'denied');
    expect(existsSync(join(done.worktreePath, 'marker.txt'))).toBe(false);
    expect(fileAt(d, done.commit, 'marker.txt')).toBeUndefined();
    expect((await events(d, 'denied')).some((e) => e.type === 'question-opened')).toBe(false);
    expect(await said(d, 'denied')).toMatch(/run failed: .*execute is denied/);
    expect(await audit(d, 'denied')).toEqual([expect.objectContaining({ action: 'execute', decision: 'rejected', rule: 'capability-denied', state: 'completed', outcome: 'rejected' })]);
  });

  it('is refused when it matches a denied pattern, even with execute allowed', async () => {
    const d = await open({ policy: { version: 1, defaults: { capabilities: { execute: 'allow' }, deniedCommands: [String.raw`\bmarker\.txt\b`] } } });
    await d.api('POST', '/', { id: 'pattern', prompt: MARK });
    await d.waitForStatus('pattern', 'completed');
    const done = await task(d, 'pattern');
    expect(existsSync(join(done.worktreePath, 'marker.txt'))).toBe(false);
    expect(await audit(d, 'pattern')).toEqual([expect.objectContaining({ decision: 'rejected', rule: 'denied-command', state: 'completed', outcome: 'rejected' })]);
  });
});

describe.each([['standard ACP', 'scripted'], ['Kandev', 'scripted-kandev']] as const)('deleting and moving with an agent speaking %s', (_dialect, agent) => {
  const files = { 'README.md': '# Fixture\n', 'keep.txt': 'stay\n', 'a.txt': 'moving\n' };

  it('a delete waits for a person; rejected, the file stays as committed; allowed, it is gone', async () => {
    const d = await open({ files });
    await d.api('POST', '/', { id: 'del', prompt: 'delete keep.txt', agent });
    const { worktree, question } = await waitingFor(d, 'del');
    expect(question).toMatchObject({ prompt: 'Delete keep.txt', toolCall: { kind: 'delete', locations: [{ path: join(worktree, 'keep.txt') }] } });
    expect((await d.api('POST', '/tasks/del/input', { optionId: 'reject' })).status).toBe(200);
    await d.waitForStatus('del', 'completed');
    const kept = await task(d, 'del');
    // Refused, the turn changed nothing: no commit, and the branch still holds the file.
    expect(kept.commit).toBeUndefined();
    expect(kept.noChanges).toBeDefined();
    expect(fileAt(d, kept.branch, 'keep.txt')).toBe('stay');
    expect(git(d.repo, 'diff', '--name-only', kept.baseCommit, kept.branch)).toBe('');
    expect(await audit(d, 'del')).toContainEqual(expect.objectContaining({ action: 'delete', decision: 'escalated', outcome: 'rejected', answeredBy: 'person' }));

    await d.api('POST', '/tasks/del/prompt', { prompt: 'delete keep.txt' });
    await d.waitForStatus('del', 'awaiting-input');
    expect((await d.api('POST', '/tasks/del/input', { optionId: 'allow' })).status).toBe(200);
    await d.waitForStatus('del', 'completed');
    expect(fileAt(d, (await task(d, 'del')).commit, 'keep.txt')).toBeUndefined();
  });

  it('a move waits for a person; rejected, nothing moves; allowed, the file is at its new path', async () => {
    const d = await open({ files });
    await d.api('POST', '/', { id: 'mv', prompt: 'move a.txt docs/b.txt', agent });
    const { worktree, question } = await waitingFor(d, 'mv');
    expect(question).toMatchObject({
      prompt: 'Move a.txt to docs/b.txt',
      toolCall: { kind: 'move', locations: [{ path: join(worktree, 'a.txt') }, { path: join(worktree, 'docs/b.txt') }] },
    });
    expect((await d.api('POST', '/tasks/mv/input', { optionId: 'reject' })).status).toBe(200);
    await d.waitForStatus('mv', 'completed');
    const kept = await task(d, 'mv');
    expect(kept.commit).toBeUndefined();
    expect(fileAt(d, kept.branch, 'a.txt')).toBe('moving');
    expect(fileAt(d, kept.branch, 'docs/b.txt')).toBeUndefined();

    await d.api('POST', '/tasks/mv/prompt', { prompt: 'move a.txt docs/b.txt' });
    await d.waitForStatus('mv', 'awaiting-input');
    expect((await d.api('POST', '/tasks/mv/input', { optionId: 'allow' })).status).toBe(200);
    await d.waitForStatus('mv', 'completed');
    const moved = await task(d, 'mv');
    expect(fileAt(d, moved.commit, 'a.txt')).toBeUndefined();
    expect(fileAt(d, moved.commit, 'docs/b.txt')).toBe('moving');
    expect(await audit(d, 'mv')).toContainEqual(expect.objectContaining({ action: 'move', decision: 'escalated', outcome: 'allowed', answeredBy: 'person' }));
  });
});
