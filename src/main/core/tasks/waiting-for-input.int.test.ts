// Waiting for input and governance, end to end in both dialects: what the policy approves, rejects and
// escalates; questions answered over HTTP; cancel answering open requests; rate limits holding tasks back.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processGroupAlive } from '../agents/process-tree';
import { git } from '../git/git-test-fixture';
import { desksPerTest, type Desk, kandevScriptedAgent, scriptedAgent, taskEvents } from '../test-support/desk-harness';

const openDesk = desksPerTest();
let desk: (Desk & { root: string }) | undefined;

const dialects = [['standard ACP', 'scripted'], ['Kandev', 'scripted-kandev']] as const;

async function open(): Promise<Desk & { root: string }> {
  desk = await openDesk({ agents: [scriptedAgent(), kandevScriptedAgent()] });
  return desk;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads the fields it needs
const events = (d: Desk, id: string): Promise<any[]> => taskEvents(d, id);
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- audit records are read loosely
const audit = async (d: Desk, taskId: string): Promise<any[]> => (await d.api('GET', `/api/governance/requests?task=${taskId}`)).json.requests;
const fileAt = (d: Desk, commit: string, path: string) => { try { return git(d.repo, 'show', `${commit}:${path}`); } catch { return undefined; } };

describe.each(dialects)('with an agent speaking %s', (_dialect, agent) => {
  it('a permission the policy allows goes through without a person', async () => {
    const d = await open();
    const policy = (await d.api('GET', '/api/governance/policy')).json.policy;
    const put = await d.api('PUT', '/api/governance/policy', { ...policy, agents: { ...policy.agents, [agent]: { capabilities: { other: 'allow' } } } });
    expect(put.status, put.text).toBe(200);
    await d.api('POST', '/', { id: 'allowed', prompt: 'ask Tidy up?\nwrite tidy.txt done', agent });
    await d.waitForStatus('allowed', 'completed');
    expect(fileAt(d, (await d.api('GET', '/tasks/allowed')).json.commit, 'tidy.txt')).toBe('done');
    expect((await events(d, 'allowed')).some((e) => e.type === 'question-opened')).toBe(false);
    expect(await audit(d, 'allowed')).toContainEqual(expect.objectContaining({ decision: 'approved', rule: 'capability-allowed', state: 'completed', outcome: 'allowed' }));
  });

  it('an escalated permission waits for a person, is answered over HTTP once, and the task goes on', async () => {
    const d = await open();
    await d.api('POST', '/', { id: 'asks', prompt: 'ask May I rewrite the README?\nwrite README.md rewritten', agent });
    await d.waitForStatus('asks', 'awaiting-input');

    const listed = (await d.api('GET', '/')).json.tasks.find((t: { id: string }) => t.id === 'asks');
    expect(listed.status).toBe('awaiting-input');
    const [question] = listed.openQuestions;
    expect(question).toMatchObject({ kind: 'permission', prompt: 'May I rewrite the README?', options: [{ optionId: 'allow', name: 'Allow' }, { optionId: 'reject', name: 'Reject' }] });
    expect((await d.api('GET', '/tasks/asks')).json.openQuestions).toEqual([question]);
    expect((await events(d, 'asks')).find((e) => e.type === 'question-opened')?.question).toEqual(question);

    const answered = await d.api('POST', '/tasks/asks/input', { questionId: question.id, optionId: 'allow' });
    expect(answered.status, answered.text).toBe(200);
    const late = await d.api('POST', '/tasks/asks/input', { questionId: question.id, optionId: 'reject' });
    expect(late.status).toBe(409);
    await d.waitForStatus('asks', 'completed');
    expect(fileAt(d, (await d.api('GET', '/tasks/asks')).json.commit, 'README.md')).toBe('rewritten');
    const record = (await audit(d, 'asks')).find((r) => r.decision === 'escalated');
    expect(record).toMatchObject({ rule: 'needs-person', state: 'completed', outcome: 'allowed', answeredBy: 'person' });
    expect(record.waitedMs).toBeGreaterThanOrEqual(0);
  });

  it('a person\'s rejection ends the agent\'s turn without the rejected work', async () => {
    const d = await open();
    await d.api('POST', '/', { id: 'nope', prompt: 'ask Delete the tests?\nwrite deleted.txt yes', agent });
    await d.waitForStatus('nope', 'awaiting-input');
    expect((await d.api('POST', '/tasks/nope/input', { optionId: 'reject' })).status).toBe(200);
    await d.waitForStatus('nope', 'completed');
    expect(fileAt(d, (await d.api('GET', '/tasks/nope')).json.commit, 'deleted.txt')).toBeUndefined();
  });

  it('a question with a form is answered and the agent uses the answer', async () => {
    const d = await open();
    await d.api('POST', '/', { id: 'form', prompt: 'question Which colour?', agent });
    await d.waitForStatus('form', 'awaiting-input');
    const [question] = (await d.api('GET', '/tasks/form')).json.openQuestions;
    expect(question).toMatchObject({ kind: 'elicitation', prompt: 'Which colour?', requestedSchema: { type: 'object', required: ['answer'] } });
    expect((await d.api('POST', '/tasks/form/input', { optionId: 'x' })).status).toBe(400);
    expect((await d.api('POST', '/tasks/form/input', { content: { answer: 'teal' } })).status).toBe(200);
    await d.waitForStatus('form', 'completed');
    const said = (await events(d, 'form')).filter((e) => e.type === 'agent' && e.update.kind === 'message').map((e) => e.update.text).join('');
    expect(said).toContain('Answer: teal');
  });

  it('a write outside the worktree is rejected by the policy and logged with its rule', async () => {
    const d = await open();
    const outside = join(d.root, 'outside.txt');
    await d.api('POST', '/', { id: 'escape', prompt: `write ${outside} nope`, agent });
    await d.waitForStatus('escape', 'completed');
    expect(fileAt(d, (await d.api('GET', '/tasks/escape')).json.commit, 'outside.txt')).toBeUndefined();
    if (agent === 'scripted') {
      // The Kandev dialect has no client file access, so only the standard agent asks the desk.
      expect(await audit(d, 'escape')).toContainEqual(expect.objectContaining({ decision: 'rejected', rule: 'path-outside-worktree' }));
    }
  });

  it('a cancel answers the open question with cancelled and ends the agent', async () => {
    const d = await open();
    await d.api('POST', '/', { id: 'stop', prompt: 'ask Go on?\nwrite never.txt x', agent });
    await d.waitForStatus('stop', 'awaiting-input');
    const { agentPid } = (await d.api('GET', '/tasks/stop')).json;
    expect((await d.api('DELETE', '/stop')).json).toMatchObject({ status: 'cancelled' });
    expect((await d.api('GET', '/tasks/stop')).json.openQuestions).toBeUndefined();
    expect((await events(d, 'stop')).find((e) => e.type === 'question-answered')).toMatchObject({ answer: { cancelled: true } });
    expect(await audit(d, 'stop')).toContainEqual(expect.objectContaining({ decision: 'escalated', state: 'completed', outcome: 'cancelled' }));
    expect(processGroupAlive(agentPid)).toBe(false);
  });
});

describe('answering', () => {
  it('is refused when nothing is open, and for an unknown task', async () => {
    const d = await open();
    await d.api('POST', '/', { id: 'quiet', prompt: 'say nothing to ask' });
    await d.waitForStatus('quiet', 'completed');
    expect((await d.api('POST', '/tasks/quiet/input', { optionId: 'allow' })).status).toBe(409);
    expect((await d.api('POST', '/tasks/ghost/input', { optionId: 'allow' })).status).toBe(404);
    expect((await d.api('POST', '/tasks/quiet/input', { nothing: true })).status).toBe(400);
  });
});

describe('rate limits', () => {
  it('hold a ready task back while its agent is at its limit, saying why', async () => {
    const d = await open();
    const policy = (await d.api('GET', '/api/governance/policy')).json.policy;
    await d.api('PUT', '/api/governance/policy', { ...policy, agents: { scripted: { concurrentTasks: 1, promptsPerHour: 2 } } });
    await d.api('POST', '/', { id: 'first', prompt: 'sleep 600' });
    await d.api('POST', '/', { id: 'second', prompt: 'say second' });
    await d.waitForStatus('first', 'in-progress');
    const waiting = (await d.api('GET', '/tasks/second')).json;
    expect(waiting.status).toBe('queued');
    expect(waiting.blockedBy).toMatch(/may run 1 task at once/);
    await d.waitForStatus('second', 'completed');

    await d.api('POST', '/', { id: 'third', prompt: 'say third' });
    expect((await d.api('GET', '/tasks/third')).json.blockedBy).toMatch(/limit of 2 prompts per hour/);
  });
});
