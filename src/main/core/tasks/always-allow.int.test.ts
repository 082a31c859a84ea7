// "Always allow" is the desk's decision, end to end with the real scripted agent: the person's choice is kept for the
// rest of the task (restarts included) and approves that kind of request without asking; the agent is answered "allow
// once", so it writes no standing permission into the worktree; a new submission starts without it; Settings makes it a rule.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { desksPerTest, startDesk, taskEvents, type Desk } from '../test-support/desk-harness';

const openDesk = desksPerTest();

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads the fields it needs
const events = (d: Desk, id: string): Promise<any[]> => taskEvents(d, id);
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- audit records are read loosely
const audit = async (d: Desk, taskId: string): Promise<any[]> => (await d.api('GET', `/api/governance/requests?task=${taskId}`)).json.requests;
const said = async (d: Desk, id: string): Promise<string> => (await events(d, id))
  .filter((e) => e.type === 'agent' && e.update.kind === 'message').map((e) => e.update.text).join('\n');

/** Answers the task's one open question with the option named `optionId`. */
async function answer(d: Desk, id: string, optionId: string): Promise<void> {
  await d.waitForStatus(id, 'awaiting-input');
  const [question] = (await d.api('GET', `/tasks/${id}`)).json.openQuestions;
  const answered = await d.api('POST', `/tasks/${id}/input`, { questionId: question.id, optionId });
  expect(answered.status, answered.text).toBe(200);
}

describe('an "Always allow" answer', () => {
  it('approves the same kind of request for the rest of the task without asking, and the agent keeps no standing permission', async () => {
    const d = await openDesk();
    await d.api('POST', '/', { id: 'always', prompt: 'offer-always\nask First?\nask Second?\nwrite out.txt done' });
    await d.waitForStatus('always', 'awaiting-input');
    const [question] = (await d.api('GET', '/tasks/always')).json.openQuestions;
    expect(question.options.map((o: { kind: string }) => o.kind)).toEqual(['allow_always', 'allow_once', 'reject_once']);
    await answer(d, 'always', 'allow_always');
    await d.waitForStatus('always', 'completed');

    const all = await events(d, 'always');
    expect(all.filter((e) => e.type === 'question-opened')).toHaveLength(1);
    expect(await said(d, 'always')).toContain('Allowed: Second?');
    expect(all.map((e) => e.text)).toContain(
      'You chose Always allow: the desk approves other requests of scripted for the rest of this task without asking. '
      + 'The agent was answered "Allow" (once), so it keeps no standing permission of its own. Settings → "Always-allow answers" can make it a policy rule.');
    const second = (await audit(d, 'always')).find((r) => r.summary === 'Second?');
    expect(second).toMatchObject({ decision: 'approved', rule: 'always-allowed-in-task', reason: 'You chose Always allow for other earlier in this task.', outcome: 'allowed' });
    // The desk answered "allow once": the agent wrote no standing permission where the commit could take it.
    const worktreePath = await d.core.worktreeView('always') as string;
    expect(existsSync(join(worktreePath, 'out.txt'))).toBe(true);
    expect(existsSync(join(worktreePath, '.claude', 'settings.local.json'))).toBe(false);
  });

  it('still holds in a follow-up after the desk restarts, and is gone once the task is submitted again', async () => {
    const first = await startDesk();
    await first.api('POST', '/', { id: 'kept', prompt: 'offer-always\nask First?' });
    await answer(first, 'kept', 'allow_always');
    await first.waitForStatus('kept', 'completed');
    await first.close();

    const d = await openDesk({ reuse: { root: first.root, repo: first.repo, dataDir: first.dataDir } });
    expect((await d.api('POST', '/tasks/kept/prompt', { prompt: 'ask Again?' })).status).toBe(202);
    await d.waitForStatus('kept', 'completed');
    expect(await said(d, 'kept')).toContain('Allowed: Again?');

    await d.api('POST', '/', { id: 'kept', prompt: 'ask Once more?' });
    await d.waitForStatus('kept', 'awaiting-input');
    expect((await d.api('GET', '/api/governance/always-allow')).json.answers).toEqual([]);
  });

  it('is listed for Settings, which makes it a rule of the policy for that agent', async () => {
    const d = await openDesk();
    await d.api('POST', '/', { id: 'ruled', prompt: 'offer-always\nask First?' });
    await answer(d, 'ruled', 'allow_always');
    await d.waitForStatus('ruled', 'completed');
    const [listed] = (await d.api('GET', '/api/governance/always-allow')).json.answers;
    expect(listed).toMatchObject({ taskId: 'ruled', agent: 'scripted', capability: 'other', isRule: false });

    const made = await d.api('POST', '/api/governance/always-allow/rule', { agent: 'scripted', capability: 'other' });
    expect(made.status, made.text).toBe(200);
    expect(made.json.policy.agents.scripted.capabilities).toEqual({ other: 'allow' });
    expect((await d.api('GET', '/api/governance/always-allow')).json.answers[0].isRule).toBe(true);
    // The rule holds in a new task, with nobody asked.
    await d.api('POST', '/', { id: 'after-rule', prompt: 'ask Anything?' });
    await d.waitForStatus('after-rule', 'completed');
    expect((await audit(d, 'after-rule'))[0]).toMatchObject({ rule: 'capability-allowed' });
  });

  it('refuses to make a rule of a capability the policy does not know, saying so', async () => {
    const d = await openDesk();
    const refused = await d.api('POST', '/api/governance/always-allow/rule', { agent: 'scripted', capability: 'everything' });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toMatch(/capability/);
  });
});

describe("an agent's vendor-local files", () => {
  it('stay out of the task\'s commit, in the worktree, and the activity names what was left out', async () => {
    const d = await openDesk();
    const grant = '{"permissions":{"allow":["Bash"]}}';
    await d.api('POST', '/', { id: 'local', prompt: `write .claude/settings.local.json ${grant}\nwrite CLAUDE.local.md my notes\nwrite a.txt work` });
    await d.waitForStatus('local', 'completed');
    const { commit } = (await d.api('GET', '/tasks/local')).json;
    const worktreePath = await d.core.worktreeView('local') as string;
    const diff = (await d.api('GET', '/api/tasks/local/diff')).json;
    expect(diff.files.map((file: { path: string }) => file.path)).toEqual(['a.txt']);
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(existsSync(join(worktreePath, '.claude', 'settings.local.json'))).toBe(true);
    expect((await events(d, 'local')).map((e) => e.text)).toContain(
      "Left out of the commit: .claude/settings.local.json (Claude Code's local settings, kept out of your repository), CLAUDE.local.md (Claude Code's local notes, kept out of your repository).");
  });
});
