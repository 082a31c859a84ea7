// One task, several attempts, with a real desk and the scripted agent: each attempt runs side by side as its own run,
// in its own worktree on its own branch; the desk asks which to keep (answered over HTTP), or keeps one by `choose`.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AgentSpec } from '../agents/agent-spec';
import { git } from '../git/git-test-fixture';
import { desksPerTest, kandevScriptedAgent, policyAllowing, scriptedAgent, startDesk, taskEvents, waitForEvent, type Desk } from '../test-support/desk-harness';

const openDesk = desksPerTest();

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the task as GET /tasks/<id> answers it
const detail = async (d: Desk, id: string): Promise<any> => (await d.api('GET', `/tasks/${encodeURIComponent(id)}`)).json;
const branchExists = (d: Desk, branch: string) => git(d.repo, 'branch', '--list', branch).trim() !== '';

/** A script line that sleeps in the worktree of attempt `n` only (worktrees are named after the attempt's id). */
const slowIn = (n: number, seconds: number) => `run case "$PWD" in *attempt-${n}-*) sleep ${seconds};; esac`;

describe('a task with attempts', () => {
  it('runs each attempt at once in its own worktree and branch, asks which to keep, and keeps the one answered over HTTP', async () => {
    const d = await openDesk({ concurrency: 3, agents: [scriptedAgent(), kandevScriptedAgent()], policy: policyAllowing('execute') });
    const submitted = await d.api('POST', '/', {
      id: 'pick', prompt: 'sleep 3000\nrun basename "$PWD" > where.txt',
      attempts: [{}, { agent: 'scripted-kandev' }, { agent: 'scripted' }],
    });
    expect(submitted.status).toBe(202);
    // All three run side by side: the task is in progress while they do.
    await waitForEvent(d, 'pick', (e) => e.event.type === 'task' && e.event.task.status === 'in-progress');
    await expect.poll(async () => (await detail(d, 'pick')).attempts.filter((a: { status: string }) => a.status === 'in-progress').length, { timeout: 15_000 }).toBe(3);

    await d.waitForStatus('pick', 'awaiting-input', 30_000);
    const waiting = await detail(d, 'pick');
    expect(waiting.attempts.map((a: { n: number; agent: string; status: string }) => [a.n, a.agent, a.status])).toEqual([[1, 'scripted', 'completed'], [2, 'scripted-kandev', 'completed'], [3, 'scripted', 'completed']]);
    const branches = waiting.attempts.map((a: { branch: string }) => a.branch);
    expect(new Set(branches).size).toBe(3);
    for (const attempt of waiting.attempts) {
      expect(attempt).toMatchObject({ filesChanged: 1, additions: 1, deletions: 0 });
      // Each attempt's commit is on its own branch, made in its own worktree.
      expect(git(d.repo, 'rev-parse', attempt.branch).trim()).toBe(attempt.commit);
      expect(git(d.repo, 'show', `${attempt.commit}:where.txt`).trim()).toContain(`attempt-${attempt.n}`);
    }
    expect(waiting.openQuestions).toHaveLength(1);
    expect(waiting.openQuestions[0].options.map((o: { optionId: string }) => o.optionId)).toEqual(['attempt-1', 'attempt-2', 'attempt-3']);
    // The list shows the task once, its attempts in brief; their own tasks are not listed.
    const listed = (await d.api('GET', '/')).json.tasks;
    expect(listed.map((t: { id: string }) => t.id)).toEqual(['pick']);
    expect(listed[0].attemptsBrief).toEqual([1, 2, 3].map((n) => ({ n, agent: n === 2 ? 'scripted-kandev' : 'scripted', status: 'completed', additions: 1, deletions: 0 })));

    const worktreeOf1 = (await detail(d, 'pick~attempt-1')).worktreePath;
    expect((await d.api('POST', '/tasks/pick/input', { optionId: 'attempt-9' })).status).toBe(400);
    expect((await d.api('POST', '/tasks/pick/input', { optionId: 'attempt-2' })).status).toBe(200);
    await d.waitForStatus('pick', 'completed');
    const kept = await detail(d, 'pick');
    expect(kept.commit).toBe(waiting.attempts[1].commit);
    expect(kept.branch).toBe(branches[1]);
    expect(kept.agent).toBe('scripted-kandev');
    expect(kept.attempts[1].chosen).toBe(true);
    expect(kept.attemptsBrief[1]).toMatchObject({ n: 2, chosen: true });
    // The others' branches are archived and their worktrees gone; the kept one stays for review.
    await expect.poll(() => branchExists(d, branches[0]) || branchExists(d, branches[2]), { timeout: 15_000 }).toBe(false);
    expect(existsSync(worktreeOf1)).toBe(false);
    expect(branchExists(d, branches[1])).toBe(true);
    expect(git(d.repo, 'for-each-ref', '--format=%(objectname)', 'refs/desk/archive/').split('\n')).toEqual(expect.arrayContaining([waiting.attempts[0].commit, waiting.attempts[2].commit]));

    // Review acts on the kept attempt: approving merges its commit.
    expect((await d.api('POST', '/tasks/pick/approve')).status).toBe(200);
    expect(git(d.repo, 'show', 'main:where.txt').trim()).toContain('attempt-2');
  });

  it('shows the tokens each attempt took, as its agent reported them', async () => {
    const d = await openDesk();
    await d.api('POST', '/', { id: 'counted', prompt: 'usage 100 20\nwrite a.txt a', attempts: [{}, {}] });
    await d.waitForStatus('counted', 'awaiting-input', 30_000);
    expect((await detail(d, 'counted')).attempts.map((a: { tokens?: number }) => a.tokens)).toEqual([120, 120]);
  });

  it('ends in error when no attempt completed', async () => {
    const d = await openDesk();
    await d.api('POST', '/', { id: 'doomed', prompt: 'fail nothing works', attempts: [{}, {}] });
    await d.waitForStatus('doomed', 'error', 30_000);
    const task = await detail(d, 'doomed');
    expect(task.errorMessage).toBe('No attempt completed: attempt 1 error, attempt 2 error.');
    expect(task.attempts.map((a: { errorMessage?: string }) => a.errorMessage)).toEqual([expect.stringContaining('nothing works'), expect.stringContaining('nothing works')]);
  });

  it('asks among the attempts that completed when one failed', async () => {
    const broken: AgentSpec = { id: 'broken', name: 'Broken agent', command: '/nonexistent/broken-agent', args: [], dialect: 'acp', envAllowlist: [], env: {} };
    const d = await openDesk({ agents: [scriptedAgent(), broken] });
    await d.api('POST', '/', { id: 'half', prompt: 'write ok.txt ok', attempts: [{ agent: 'broken' }, {}] });
    await d.waitForStatus('half', 'awaiting-input', 30_000);
    const task = await detail(d, 'half');
    expect(task.openQuestions[0].options.map((o: { optionId: string }) => o.optionId)).toEqual(['attempt-2']);
    expect(task.attempts.map((a: { status: string }) => a.status)).toEqual(['error', 'completed']);
  });

  it('keeps the first to complete with choose first, and stops the others', async () => {
    const d = await openDesk({ policy: policyAllowing('execute') });
    await d.api('POST', '/', { id: 'race', prompt: `${slowIn(1, 30)}\nwrite done.txt done`, attempts: [{}, {}], choose: 'first' });
    await d.waitForStatus('race', 'completed', 30_000);
    const task = await detail(d, 'race');
    expect(task.choose).toBe('first');
    expect(task.attempts[1]).toMatchObject({ chosen: true, status: 'completed' });
    expect(task.commit).toBe(task.attempts[1].commit);
    await expect.poll(async () => (await detail(d, 'race')).attempts[0].status, { timeout: 15_000 }).toBe('cancelled');
    expect((await detail(d, 'race~attempt-1')).agentPid).toBeUndefined();
  });

  it('keeps the first that passes the check with choose check', async () => {
    const d = await openDesk({ policy: policyAllowing('execute'), files: { 'README.md': '# Fixture\n', '.desk/config.json': JSON.stringify({ check: 'case "$PWD" in *attempt-1-*) exit 1;; esac' }) } });
    // Attempt 1 completes first, and fails the check: the task waits for attempt 2, which passes it.
    await d.api('POST', '/', { id: 'checked', prompt: `${slowIn(2, 1)}\nwrite a.txt a`, attempts: [{}, {}], choose: 'check' });
    await d.waitForStatus('checked', 'completed', 30_000);
    const task = await detail(d, 'checked');
    expect(task.attempts.map((a: { check: { status: string } }) => a.check.status)).toEqual(['failed', 'passed']);
    expect(task.attempts[1].chosen).toBe(true);
    expect(task.check.status).toBe('passed');
  });

  it('leaves the choice to a person with choose check when no attempt passed, and says so', async () => {
    const d = await openDesk({ files: { 'README.md': '# Fixture\n', '.desk/config.json': JSON.stringify({ check: 'exit 1' }) } });
    await d.api('POST', '/', { id: 'unchecked', prompt: 'write a.txt a', attempts: [{}, {}], choose: 'check' });
    await d.waitForStatus('unchecked', 'awaiting-input', 30_000);
    expect((await detail(d, 'unchecked')).openQuestions[0].prompt).toMatch(/^No attempt passed the check, so the choice is yours\./);
  });

  it('stops every attempt when the task is cancelled mid-way', async () => {
    const d = await openDesk();
    await d.api('POST', '/', { id: 'stop', prompt: 'sleep 30000\nwrite never.txt x', attempts: [{}, {}] });
    await expect.poll(async () => (await detail(d, 'stop')).attempts.map((a: { status: string }) => a.status), { timeout: 15_000 }).toEqual(['in-progress', 'in-progress']);
    const cancelled = await d.api('DELETE', '/tasks/stop');
    expect(cancelled.status).toBe(200);
    expect(cancelled.json.status).toBe('cancelled');
    const task = await detail(d, 'stop');
    expect(task.status).toBe('cancelled');
    expect(task.attempts.map((a: { status: string }) => a.status)).toEqual(['cancelled', 'cancelled']);
    for (const n of [1, 2]) expect((await detail(d, `stop~attempt-${n}`)).agentPid).toBeUndefined();
  });

  it('replaces every attempt when the same id is submitted again', async () => {
    const d = await openDesk({ concurrency: 3 });
    await d.api('POST', '/', { id: 'again', prompt: 'sleep 30000\nwrite old.txt x', attempts: [{}, {}, {}] });
    await expect.poll(async () => (await detail(d, 'again~attempt-3')).worktreePath, { timeout: 15_000 }).toBeDefined();
    const thirdBranch = (await detail(d, 'again~attempt-3')).branch;
    expect(branchExists(d, thirdBranch)).toBe(true);
    await d.api('POST', '/', { id: 'again', prompt: 'write new.txt y', attempts: [{}, {}] });
    await d.waitForStatus('again', 'awaiting-input', 30_000);
    const task = await detail(d, 'again');
    expect(task.attempts).toHaveLength(2);
    for (const attempt of task.attempts) expect(git(d.repo, 'show', '--name-only', '--format=', attempt.commit).trim()).toBe('new.txt');
    // The third attempt of the earlier submission was stopped, not left running, and retired.
    const third = await detail(d, 'again~attempt-3');
    expect(third.status).toBe('cancelled');
    expect(third.worktreePath).toBeUndefined();
    expect(branchExists(d, thirdBranch)).toBe(false);
    expect((await d.api('GET', '/')).json.tasks.map((t: { id: string }) => t.id)).toEqual(['again']);
  });

  it('keeps a dependent task waiting until an attempt is chosen, then starts it from the chosen work', async () => {
    const d = await openDesk({ policy: policyAllowing('execute') });
    await d.api('POST', '/', { id: 'base', prompt: 'run basename "$PWD" > where.txt', attempts: [{}, {}] });
    await d.api('POST', '/', { id: 'next', prompt: 'run cp where.txt seen.txt', dependencies: ['base'] });
    await d.waitForStatus('base', 'awaiting-input', 30_000);
    expect((await detail(d, 'next')).status).toBe('queued');
    await d.api('POST', '/tasks/base/input', { optionId: 'attempt-1' });
    await d.waitForStatus('next', 'completed', 30_000);
    expect(git(d.repo, 'show', `${(await detail(d, 'next')).commit}:seen.txt`).trim()).toContain('attempt-1');
  });
});

describe('a task with attempts over a restart', () => {
  it('runs attempts stopped mid-way again, then asks which to keep', async () => {
    const first = await startDesk();
    await first.api('POST', '/', { id: 'resumed', prompt: 'sleep 2000\nwrite a.txt a', attempts: [{}, {}] });
    await expect.poll(async () => (await detail(first, 'resumed')).attempts.map((a: { status: string }) => a.status), { timeout: 15_000 }).toEqual(['in-progress', 'in-progress']);
    await first.close();
    const d = await openDesk({ reuse: { root: first.root, repo: first.repo, dataDir: first.dataDir } });
    await d.waitForStatus('resumed', 'awaiting-input', 30_000);
    const task = await detail(d, 'resumed');
    expect(task.attempts.map((a: { status: string }) => a.status)).toEqual(['completed', 'completed']);
    expect((await detail(d, 'resumed~attempt-1')).attempt).toBe(2);
    // The task says its attempts are resumed, not that it runs again itself.
    const said = (await taskEvents(d, 'resumed')).flatMap((e) => (e.type === 'log' ? [e.text] : []));
    expect(said).toContain('The desk stopped while the attempts ran: those that had not ended run again from clean worktrees, those that had keep their work.');
    expect(said).not.toContain('The desk stopped while this task ran; it will run again from a clean worktree.');
  });

  it('asks again which to keep when the desk stopped while the question was open, and takes the answer', async () => {
    const first = await startDesk();
    await first.api('POST', '/', { id: 'asked', prompt: 'write a.txt a', attempts: [{}, {}] });
    await first.waitForStatus('asked', 'awaiting-input', 30_000);
    await first.close();
    const d = await openDesk({ reuse: { root: first.root, repo: first.repo, dataDir: first.dataDir } });
    await d.waitForStatus('asked', 'awaiting-input', 30_000);
    expect((await detail(d, 'asked')).openQuestions[0].options.map((o: { optionId: string }) => o.optionId)).toEqual(['attempt-1', 'attempt-2']);
    expect((await d.api('POST', '/tasks/asked/input', { optionId: 'attempt-1' })).status).toBe(200);
    await d.waitForStatus('asked', 'completed');
  });
});

describe('the attempt kept', () => {
  it('takes follow-ups in its worktree on its branch, and a rejection archives its branch', async () => {
    const d = await openDesk({ policy: policyAllowing('execute') });
    await d.api('POST', '/', { id: 'kept', prompt: 'run basename "$PWD" > where.txt', attempts: [{}, {}] });
    await d.waitForStatus('kept', 'awaiting-input', 30_000);
    await d.api('POST', '/tasks/kept/input', { optionId: 'attempt-2' });
    await d.waitForStatus('kept', 'completed');
    const chosen = await detail(d, 'kept');
    expect((await d.api('POST', '/tasks/kept/prompt', { prompt: 'write more.txt more' })).status).toBe(202);
    await expect.poll(async () => (await detail(d, 'kept')).commit, { timeout: 30_000 }).not.toBe(chosen.commit);
    await d.waitForStatus('kept', 'completed');
    const followed = await detail(d, 'kept');
    expect(git(d.repo, 'rev-parse', chosen.branch).trim()).toBe(followed.commit);
    expect(git(d.repo, 'show', `${followed.commit}:where.txt`).trim()).toContain('attempt-2');
    expect(git(d.repo, 'show', `${followed.commit}:more.txt`).trim()).toBe('more');
    expect((await d.api('POST', '/tasks/kept/reject')).status).toBe(200);
    expect(branchExists(d, chosen.branch)).toBe(false);
    expect(git(d.repo, 'for-each-ref', '--format=%(objectname)', 'refs/desk/archive/')).toContain(followed.commit);
    // Run again, it runs every attempt again and asks anew.
    expect((await d.api('POST', '/tasks/kept/rerun')).status).toBe(202);
    await d.waitForStatus('kept', 'awaiting-input', 30_000);
    expect((await detail(d, 'kept')).attempts.map((a: { status: string; chosen?: boolean }) => [a.status, a.chosen])).toEqual([['completed', undefined], ['completed', undefined]]);
  });

  it('finishes retiring the attempts not kept before the desk stops, when it stops right after a choice', async () => {
    const d = await openDesk({ concurrency: 2, policy: policyAllowing('execute') });
    await d.api('POST', '/', { id: 'quick', prompt: 'write one.txt 1', attempts: [{}, {}] });
    await d.waitForStatus('quick', 'awaiting-input', 30_000);
    const waiting = await detail(d, 'quick');
    const notKept = await detail(d, 'quick~attempt-1');
    expect((await d.api('POST', '/tasks/quick/input', { optionId: 'attempt-2' })).status).toBe(200);
    // At once: the keeping runs in the background, and the desk's stop waits for it (its branch archived, its worktree gone).
    await d.close();
    expect(branchExists(d, waiting.attempts[0].branch)).toBe(false);
    expect(existsSync(notKept.worktreePath)).toBe(false);
    expect(git(d.repo, 'rev-parse', waiting.attempts[1].branch).trim()).toBe(waiting.attempts[1].commit);
  });
});

describe('a submission with bad attempts', () => {
  const bad: [string, object, RegExp][] = [
    ['an unknown agent', { attempts: [{}, { agent: 'nobody' }] }, /attempts\.1\.agent/],
    ['one attempt', { attempts: [{}] }, /attempts/],
    ['nine attempts', { attempts: Array.from({ length: 9 }, () => ({})) }, /attempts/],
    ['attempts of the wrong type', { attempts: 'two' }, /attempts/],
    ['an agent of the wrong type', { attempts: [{}, { agent: 5 }] }, /attempts\.1\.agent/],
    ['an unknown field in an entry', { attempts: [{}, { model: 'x' }] }, /attempts\.1/],
    ['choose without attempts', { choose: 'first' }, /choose/],
    ['an unknown way to choose', { attempts: [{}, {}], choose: 'coin' }, /choose/],
    ['an id the desk keeps for attempts', { id: 'x~attempt-1', attempts: [{}, {}] }, /id/],
  ];
  it.each(bad)('refuses %s with 400 naming the field, and queues nothing', async (_, fields, field) => {
    const d = await openDesk();
    const answer = await d.api('POST', '/', { id: 'bad', prompt: 'write a.txt a', ...fields });
    expect(answer.status).toBe(400);
    expect(answer.json.message).toMatch(field);
    expect((await d.api('GET', '/')).json.tasks).toEqual([]);
    expect((await d.api('GET', '/tasks/bad')).status).toBe(404);
  });
});
