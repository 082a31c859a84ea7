// The ACP client features a task uses, end to end with the real scripted agent in both dialects:
// follow-up turns, terminals, the Kandev dialect, and file access confined to the worktree.
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../git/git-test-fixture';
import { desksPerTest, type Desk, type DeskOptions, kandevScriptedAgent, policyAllowing, scriptedAgent, taskEvents, waitForEvent } from '../test-support/desk-harness';

const openDesk = desksPerTest();
let desk: (Desk & { root: string }) | undefined;


async function open(options: Pick<DeskOptions, 'policy'> = {}): Promise<Desk & { root: string }> {
  desk = await openDesk({ agents: [scriptedAgent(), kandevScriptedAgent()], ...options });
  return desk;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads the fields it needs
const events = (d: Desk, id: string): Promise<any[]> => taskEvents(d, id);

describe('a follow-up prompt', () => {
  it('runs another turn in the task\'s worktree and makes a second commit on its branch', async () => {
    const d = await open();
    await d.api('POST', '/', { id: 'twice', prompt: 'First part\nwrite one.txt first' });
    await d.waitForStatus('twice', 'completed');
    const first = (await d.api('GET', '/tasks/twice')).json;

    const response = await d.api('POST', '/tasks/twice/prompt', { prompt: 'Second part\nread one.txt\nwrite two.txt second' });
    expect(response.status).toBe(202);
    await d.waitForStatus('twice', 'completed');
    const second = (await d.api('GET', '/tasks/twice')).json;

    expect(second.commit).not.toBe(first.commit);
    expect(git(d.repo, 'rev-parse', `${second.commit}^`)).toBe(first.commit);
    expect(git(d.repo, 'show', `${second.commit}:one.txt`)).toBe('first');
    expect(git(d.repo, 'show', `${second.commit}:two.txt`)).toBe('second');
    expect(git(d.repo, 'log', '-1', '--format=%B', second.commit).trimEnd()).toBe('Second part\n\nSecond part\nread one.txt\nwrite two.txt second\n\nTask-Id: twice\nTurn: 2');
    expect(second.turns.map((t: { turn: number; status: string; commit: string }) => [t.turn, t.status, t.commit]))
      .toEqual([[1, 'completed', first.commit], [2, 'completed', second.commit]]);
    expect(git(d.repo, 'rev-parse', second.branch)).toBe(second.commit);
  });

  it('is refused while the agent still works, and for an unknown task', async () => {
    const d = await open();
    await d.api('POST', '/', { id: 'busy', prompt: 'sleep 5000' });
    await d.waitForStatus('busy', 'in-progress');
    const busy = await d.api('POST', '/tasks/busy/prompt', { prompt: 'say more' });
    expect(busy.status).toBe(409);
    expect(busy.json.message).toMatch(/in-progress/);
    expect((await d.api('POST', '/tasks/nobody/prompt', { prompt: 'x' })).status).toBe(404);
    expect((await d.api('POST', '/tasks/busy/prompt', { prompt: '  ' })).json.message).toMatch(/^prompt: /);
  });
});

describe('session settings', () => {
  it('are refused while no agent runs, and passed on to a running agent that may refuse them', async () => {
    const d = await open();
    await d.api('POST', '/', { id: 'modes', prompt: 'say ready\nsleep 3000' });
    // A message of the turn means the session is open.
    await waitForEvent(d, 'modes', ({ event }) => event.type === 'agent' && event.update.kind === 'message' && event.update.text === 'ready');
    const refused = await d.api('POST', '/tasks/modes/mode', { modeId: 'architect' });
    expect(refused.status).toBe(409);
    expect(refused.json.message).toMatch(/^The agent refused: /);
    await d.api('DELETE', '/modes');
    const idle = await d.api('POST', '/tasks/modes/config', { configId: 'model', value: 'fast' });
    expect(idle.status).toBe(409);
    expect(idle.json.message).toMatch(/no agent running/);
    expect((await d.api('POST', '/tasks/modes/mode', {})).json.message).toMatch(/^modeId: /);
  });
});

describe('terminals', () => {
  it('run the agent\'s commands in the worktree and keep their output for the board', async () => {
    // About what a terminal does once it runs; asking a person first is in governance's tests.
    const d = await open({ policy: policyAllowing('execute') });
    await d.api('POST', '/', { id: 'term', prompt: 'run echo hello from $(basename "$PWD")' });
    await d.waitForStatus('term', 'completed');
    const recorded = await events(d, 'term');
    const started = recorded.find((e) => e.type === 'terminal-started');
    expect(started).toMatchObject({ command: 'sh' });
    const output = recorded.filter((e) => e.type === 'terminal-output' && e.terminalId === started.terminalId).map((e) => e.data).join('');
    expect(output).toMatch(/hello from term-/);
    expect(recorded.find((e) => e.type === 'terminal-exited')).toMatchObject({ terminalId: started.terminalId, exitCode: 0 });
    const toolContent = recorded.filter((e) => e.type === 'agent' && e.update.toolKind === undefined && e.update.content).flatMap((e) => e.update.content);
    expect(toolContent).toContainEqual({ type: 'terminal', terminalId: started.terminalId });
  });
});

describe('the Kandev dialect', () => {
  it('runs a task to a commit, with its updates recorded like any agent\'s', async () => {
    const d = await open();
    await d.api('POST', '/', { id: 'kandev', prompt: 'Kandev task\nsay working on it\nwrite k.txt from kandev', agent: 'scripted-kandev' });
    await d.waitForStatus('kandev', 'completed');
    const task = (await d.api('GET', '/tasks/kandev')).json;
    expect(git(d.repo, 'show', `${task.commit}:k.txt`)).toBe('from kandev');
    const updates = (await events(d, 'kandev')).filter((e) => e.type === 'agent').map((e) => e.update);
    // Consecutive messages are stored as one run (the Kandev dialect sends no message ids to tell them apart).
    expect(updates).toContainEqual({ kind: 'message', role: 'agent', text: 'Kandev taskworking on it' });
    expect(updates.find((u) => u.kind === 'tool-call')).toMatchObject({ toolKind: 'edit', locations: [{ path: 'k.txt' }] });
    expect(updates.find((u) => u.kind === 'tool-call-update')).toMatchObject({ status: 'completed' });
  });

  it('ends a failing turn in error with the agent\'s message, and cancels a sleeping one', async () => {
    const d = await open();
    await d.api('POST', '/', { id: 'kfail', prompt: 'fail Kandev broke', agent: 'scripted-kandev' });
    await d.waitForStatus('kfail', 'error');
    expect((await d.api('GET', '/tasks/kfail')).json.errorMessage).toContain('Kandev broke');

    await d.api('POST', '/', { id: 'ksleep', prompt: 'sleep 60000', agent: 'scripted-kandev' });
    await d.waitForStatus('ksleep', 'in-progress');
    const started = Date.now();
    expect((await d.api('DELETE', '/ksleep')).json.status).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('follows up with a new session that is told what came before, since the agent cannot resume', async () => {
    const d = await open();
    await d.api('POST', '/', { id: 'kfollow', prompt: 'write first.txt one', agent: 'scripted-kandev' });
    await d.waitForStatus('kfollow', 'completed');
    const first = (await d.api('GET', '/tasks/kfollow')).json.commit;
    await d.api('POST', '/tasks/kfollow/prompt', { prompt: 'append first.txt two' });
    await d.waitForStatus('kfollow', 'completed');
    const second = (await d.api('GET', '/tasks/kfollow')).json.commit;
    expect(git(d.repo, 'rev-parse', `${second}^`)).toBe(first);
    // The earlier prompt came along quoted, so the scripted agent did not run it again.
    expect(git(d.repo, 'show', `${second}:first.txt`)).toBe('one\ntwo');
  });

  it('is refused with a clear error when an agent configured as standard ACP answers in Kandev', async () => {
    desk = await openDesk({ agents: [scriptedAgent(), { ...kandevScriptedAgent(), dialect: 'acp' }] });
    await desk.api('POST', '/', { id: 'mismatch', prompt: 'say hi', agent: 'scripted-kandev' });
    await desk.waitForStatus('mismatch', 'error');
    expect((await desk.api('GET', '/tasks/mismatch')).json.errorMessage).toMatch(/Kandev dialect/);
  });
});

describe('file access', () => {
  it('refuses a path that leaves the worktree through a symlink, and logs it', async () => {
    const d = await open();
    const outside = join(d.root, 'secret-dir');
    mkdirSync(outside);
    // The link is committed to the repository, so every worktree has it.
    symlinkSync(outside, join(d.repo, 'escape'));
    git(d.repo, 'add', 'escape');
    git(d.repo, 'commit', '-qm', 'a link out');
    await d.api('POST', '/', { id: 'sneaky', prompt: 'write escape/stolen.txt gotcha' });
    await d.waitForStatus('sneaky', 'completed');
    const recorded = await events(d, 'sneaky');
    expect(recorded.some((e) => e.type === 'log' && /Refused (read|edit) of \S*escape\/stolen\.txt/.test(e.text))).toBe(true);
    expect(recorded.find((e) => e.type === 'governance')).toMatchObject({ decision: 'rejected', rule: 'path-outside-worktree' });
    expect(recorded.some((e) => e.type === 'agent' && e.update.kind === 'tool-call-update' && e.update.status === 'failed')).toBe(true);
  });
});
