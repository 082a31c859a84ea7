// A terminal command the policy puts to a person: the question names the command and the directory it runs in, as a
// client reads it over HTTP.
import { describe, expect, it } from 'vitest';
import { desksPerTest } from '../test-support/desk-harness';

const openDesk = desksPerTest();

describe('a question about a terminal command', () => {
  it('carries the command line and the directory the terminal starts in', async () => {
    const d = await openDesk();
    await d.api('POST', '/', { id: 'runs', prompt: 'run echo hi' });
    await d.waitForStatus('runs', 'awaiting-input');
    const task = (await d.api('GET', '/tasks/runs')).json;
    const [question] = task.openQuestions;
    expect(question.toolCall).toMatchObject({ kind: 'execute', rawInput: { command: expect.stringContaining('echo hi'), cwd: task.worktreePath } });
  });
});
