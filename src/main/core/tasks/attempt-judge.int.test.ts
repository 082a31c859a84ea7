// The judge of a task's attempts, with a real desk and the scripted agent as judge. The judge's prompt ends with the
// task's own prompt (attempt-judge.ts), so a `say RECOMMEND: …` line in the task scripts what the scripted judge answers
// (the attempts say it too, which changes nothing of their work).
import { describe, expect, it } from 'vitest';
import type { AgentSpec } from '../agents/agent-spec';
import { git } from '../git/git-test-fixture';
import { desksPerTest, policyAllowing, scriptedAgent, startDesk, taskEvents, type Desk } from '../test-support/desk-harness';

const openDesk = desksPerTest();

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the task as GET /tasks/<id> answers it
const detail = async (d: Desk, id: string): Promise<any> => (await d.api('GET', `/tasks/${encodeURIComponent(id)}`)).json;
const logLines = async (d: Desk, id: string) => (await taskEvents(d, id)).flatMap((event) => (event.type === 'log' ? [event.text] : []));

describe('a judge of the attempts', () => {
  it('recommends an attempt with the question, from a turn of its own that commits nothing, and the person still chooses', async () => {
    const d = await openDesk();
    const submitted = await d.api('POST', '/', { id: 'judged', prompt: 'write a.txt a\nsay RECOMMEND: attempt-2 - it is the tidier one', attempts: [{}, {}], judge: 'scripted' });
    expect(submitted.status).toBe(202);
    await d.waitForStatus('judged', 'awaiting-input', 30_000);
    const task = await detail(d, 'judged');
    expect(task.judge).toBe('scripted');
    expect(task.recommendation).toEqual({ n: 2, reason: 'it is the tidier one', by: 'scripted' });
    expect(task.openQuestions[0].prompt).toMatch(/^The judge \(scripted\) recommends attempt 2: it is the tidier one Which attempt do you keep\?/);
    expect(task.openQuestions[0].options.map((o: { name: string }) => o.name)).toEqual(['Attempt 1 (scripted)', 'Attempt 2 (scripted, recommended by the judge)']);
    // The judge's prompt held each attempt's diff; its turn is its own task, never listed, and left no commit or worktree.
    const judge = await detail(d, 'judged~judge');
    expect(judge).toMatchObject({ judgeOf: 'judged', status: 'completed', agent: 'scripted' });
    expect(judge.prompt).toContain('## Attempt 1 (attempt-1)');
    expect(judge.prompt).toContain('+a');
    expect(judge.commit).toBeUndefined();
    await expect.poll(async () => (await detail(d, 'judged~judge')).worktreePath, { timeout: 15_000 }).toBeUndefined();
    expect(git(d.repo, 'branch', '--list', judge.branch).trim()).toBe('');
    expect((await d.api('GET', '/')).json.tasks.map((t: { id: string }) => t.id)).toEqual(['judged']);
    expect(await logLines(d, 'judged')).toEqual(expect.arrayContaining(['All attempts ended: the judge (scripted) compares the 2 that completed.', 'The judge (scripted) recommends attempt 2: it is the tidier one']));

    expect((await d.api('POST', '/tasks/judged/input', { optionId: 'attempt-1' })).status).toBe(200);
    await d.waitForStatus('judged', 'completed');
    const kept = await detail(d, 'judged');
    expect(kept.commit).toBe(task.attempts[0].commit);
    expect(kept.recommendation.n).toBe(2);
  });

  it('applies its recommendation with choose judge, and the activity says the judge chose', async () => {
    const d = await openDesk();
    await d.api('POST', '/', { id: 'applied', prompt: 'write a.txt a\nsay RECOMMEND: attempt-1 - first is best', attempts: [{}, {}], judge: 'scripted', choose: 'judge' });
    await d.waitForStatus('applied', 'completed', 30_000);
    const task = await detail(d, 'applied');
    expect(task.choose).toBe('judge');
    expect(task.attempts[0].chosen).toBe(true);
    expect(task.commit).toBe(task.attempts[0].commit);
    expect(task.openQuestions ?? []).toEqual([]);
    expect(await logLines(d, 'applied')).toContain('Kept attempt 1, as the judge (scripted) chose: first is best');
  });

  it('leaves the question open with a note when it names no attempt, even with choose judge', async () => {
    const d = await openDesk();
    await d.api('POST', '/', { id: 'mute', prompt: 'write a.txt a\nsay I cannot decide.', attempts: [{}, {}], judge: 'scripted', choose: 'judge' });
    await d.waitForStatus('mute', 'awaiting-input', 30_000);
    const task = await detail(d, 'mute');
    expect(task.recommendation).toBeUndefined();
    expect(task.judgeNote).toBe('The judge (scripted) named no attempt (its answer has no RECOMMEND line).');
    expect(task.openQuestions[0].prompt).toMatch(/^The judge \(scripted\) named no attempt \(its answer has no RECOMMEND line\)\. The choice is yours\. Which attempt/);
    expect(await logLines(d, 'mute')).toContain('The judge (scripted) named no attempt (its answer has no RECOMMEND line). The choice is left to a person.');
    expect((await d.api('POST', '/tasks/mute/input', { optionId: 'attempt-2' })).status).toBe(200);
    await d.waitForStatus('mute', 'completed');
  });

  it('leaves the choice to a person, saying so, when it names an attempt that did not complete or none at all', async () => {
    const broken: AgentSpec = { id: 'broken', name: 'Broken agent', command: '/nonexistent/broken-agent', args: [], dialect: 'acp', envAllowlist: [], env: {} };
    const d = await openDesk({ agents: [scriptedAgent(), broken] });
    await d.api('POST', '/', { id: 'wrong', prompt: 'write a.txt a\nsay RECOMMEND: attempt-1 - the broken one', attempts: [{ agent: 'broken' }, {}], judge: 'scripted', choose: 'judge' });
    await d.api('POST', '/', { id: 'none', prompt: 'write b.txt b\nsay RECOMMEND: none - neither has tests', attempts: [{}, {}], judge: 'scripted', choose: 'judge' });
    await d.waitForStatus('wrong', 'awaiting-input', 30_000);
    expect((await detail(d, 'wrong')).judgeNote).toBe('The judge (scripted) recommended attempt 1, which is not among those that completed (2).');
    await d.waitForStatus('none', 'awaiting-input', 30_000);
    expect((await detail(d, 'none')).judgeNote).toBe('The judge (scripted) found no attempt acceptable: neither has tests');
  });

  it('leaves the choice to a person when the judge fails', async () => {
    const broken: AgentSpec = { id: 'broken', name: 'Broken agent', command: '/nonexistent/broken-agent', args: [], dialect: 'acp', envAllowlist: [], env: {} };
    const d = await openDesk({ agents: [scriptedAgent(), broken] });
    await d.api('POST', '/', { id: 'failing', prompt: 'write a.txt a', attempts: [{}, {}], judge: 'broken', choose: 'judge' });
    await d.waitForStatus('failing', 'awaiting-input', 30_000);
    const task = await detail(d, 'failing');
    expect(task.judgeNote).toMatch(/^The judge \(broken\) failed: /);
    expect(task.openQuestions[0].prompt).toMatch(/^The judge \(broken\) failed: .* The choice is yours\. Which attempt/s);
  });

  it('is stopped when it takes too long, and the choice is left to a person', async () => {
    const d = await openDesk({ policy: policyAllowing('execute'), judgeTimeoutMs: 2000 });
    await d.api('POST', '/', { id: 'slow', prompt: 'write a.txt a\nrun case "$PWD" in *judge*) sleep 30;; esac\nsay RECOMMEND: attempt-1 - too late', attempts: [{}, {}], judge: 'scripted', choose: 'judge' });
    await d.waitForStatus('slow', 'awaiting-input', 30_000);
    const task = await detail(d, 'slow');
    expect(task.judgeNote).toBe('The judge (scripted) did not answer within 2 seconds and was stopped.');
    expect(task.recommendation).toBeUndefined();
    expect((await detail(d, 'slow~judge')).status).toBe('cancelled');
  });

  it('is stopped with the task when the task is cancelled while it judges', async () => {
    const d = await openDesk({ policy: policyAllowing('execute') });
    // Only the judge sleeps (its worktree is named after its task, `~judge`).
    await d.api('POST', '/', { id: 'stopped', prompt: 'write a.txt a\nrun case "$PWD" in *judge*) sleep 30;; esac', attempts: [{}, {}], judge: 'scripted' });
    await expect.poll(async () => (await d.api('GET', '/tasks/stopped~judge')).json.status, { timeout: 30_000 }).toBe('in-progress');
    expect((await detail(d, 'stopped')).status).toBe('in-progress');
    expect((await d.api('DELETE', '/tasks/stopped')).status).toBe(200);
    expect((await detail(d, 'stopped')).status).toBe('cancelled');
    const judge = await detail(d, 'stopped~judge');
    expect(judge.status).toBe('cancelled');
    expect(judge.agentPid).toBeUndefined();
    await expect.poll(async () => (await detail(d, 'stopped~judge')).worktreePath, { timeout: 15_000 }).toBeUndefined();
  });
});

describe('a judge over a restart', () => {
  it('judges again when the desk stopped while it judged, and its recommendation comes with the question', async () => {
    const first = await startDesk({ policy: policyAllowing('execute') });
    await first.api('POST', '/', { id: 'restarted', prompt: 'write a.txt a\nrun case "$PWD" in *judge*) sleep 2;; esac\nsay RECOMMEND: attempt-1 - it came back', attempts: [{}, {}], judge: 'scripted' });
    await expect.poll(async () => (await first.api('GET', '/tasks/restarted~judge')).json.status, { timeout: 30_000 }).toBe('in-progress');
    await first.close();
    const d = await openDesk({ reuse: { root: first.root, repo: first.repo, dataDir: first.dataDir }, policy: policyAllowing('execute') });
    await d.waitForStatus('restarted', 'awaiting-input', 30_000);
    expect((await detail(d, 'restarted')).recommendation).toEqual({ n: 1, reason: 'it came back', by: 'scripted' });
    expect((await detail(d, 'restarted~judge')).attempt).toBe(2);
    expect(await logLines(d, 'restarted')).toContain('The desk stopped while the judge compared the attempts; it judges them again.');
  });
});

describe('a submission with a bad judge', () => {
  const bad: [string, object, RegExp][] = [
    ['an unknown judge agent', { attempts: [{}, {}], judge: 'nobody' }, /^judge: No agent "nobody"/],
    ['a judge of the wrong type', { attempts: [{}, {}], judge: 5 }, /judge/],
    ['a judge without attempts', { judge: 'scripted' }, /judge: is only for a task with attempts/],
    ['choose judge without a judge', { attempts: [{}, {}], choose: 'judge' }, /choose: "judge" needs a judge/],
    ['an id the desk keeps for judges', { id: 'x~judge', attempts: [{}, {}] }, /id/],
  ];
  it.each(bad)('refuses %s with 400 naming the field, and queues nothing', async (_, fields, field) => {
    const d = await openDesk();
    const answer = await d.api('POST', '/', { id: 'bad', prompt: 'write a.txt a', ...fields });
    expect(answer.status).toBe(400);
    expect(answer.json.message).toMatch(field);
    expect((await d.api('GET', '/')).json.tasks).toEqual([]);
  });
});
