// One permission request for a write, then the write itself (as claude-code-acp does it: `ask-write`): the activity
// says the policy's decision once, and a person is asked once.
import { describe, expect, it } from 'vitest';
import { git } from '../git/git-test-fixture';
import { desksPerTest, taskEvents } from '../test-support/desk-harness';

const openDesk = desksPerTest();

describe('a write the agent asked permission for', () => {
  it('shows the policy\'s approval once', async () => {
    const d = await openDesk({ policy: { version: 1, defaults: { capabilities: { edit: 'allow' } } } });
    await d.api('POST', '/', { id: 'writes', prompt: 'ask-write notes/hello.txt Hello there' });
    expect(await d.waitForStatus('writes', ['completed', 'error'])).toBe('completed');
    const decisions = (await taskEvents(d, 'writes')).filter((event) => event.type === 'governance' && event.reason.startsWith('edit'));
    expect(decisions).toEqual([expect.objectContaining({ decision: 'approved', reason: 'edit is allowed for this agent.' })]);
  });

  it('asks a person once, and writes the file on that answer', async () => {
    const d = await openDesk({ policy: { version: 1, defaults: { capabilities: { edit: 'ask' } } } });
    await d.api('POST', '/', { id: 'asks', prompt: 'ask-write notes/hello.txt Hello there' });
    await d.waitForStatus('asks', 'awaiting-input');
    const [question] = (await d.api('GET', '/tasks/asks')).json.openQuestions;
    expect((await d.api('POST', '/tasks/asks/input', { questionId: question.id, optionId: 'allow' })).status).toBe(200);
    expect(await d.waitForStatus('asks', ['completed', 'error', 'awaiting-input'])).toBe('completed');
    const events = await taskEvents(d, 'asks');
    expect(events.filter((event) => event.type === 'question-opened')).toHaveLength(1);
    const { commit } = (await d.api('GET', '/tasks/asks')).json;
    expect(git(d.repo, 'show', `${commit}:notes/hello.txt`)).toBe('Hello there');
  });
});
