// A task whose agent rewrote its worktree's .git file ends in error with the desk's reason, and nothing is
// committed anywhere. In the sandbox the file is read-only; these tests take the sandbox away to show the
// desk's own checks hold without it.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFiles, git } from '../git/git-test-fixture';
import type { SandboxStatus } from '../../../shared/sandbox';
import { hostileAgent } from '../sandbox/test-support/sandbox-for-tests';
import { desksPerTest, scriptedAgent, taskEvents } from '../test-support/desk-harness';

const openDesk = desksPerTest();
const NO_SANDBOX: SandboxStatus = { kind: 'none', available: false, reason: 'taken away for this test' };

describe('a task whose agent rewrote its .git file', () => {
  it('ends in error naming the file, with no commit in the other repository or on its branch', async () => {
    const desk = await openDesk({ sandbox: NO_SANDBOX, agents: [scriptedAgent(), hostileAgent()] });
    const other = join(desk.root, 'other');
    mkdirSync(other);
    git(other, 'init', '--quiet', '--initial-branch=main');
    const otherTip = commitFiles(other, { 'theirs.txt': 'theirs\n' });
    // Written by the agent's own process, not through the desk's file API (which refuses it, below).
    const attacks = [{ write: 'work.txt', text: 'done' }, { write: '.git', text: `gitdir: ${join(other, '.git')}\n` }];
    const response = await desk.api('POST', '/', { id: 'steer', prompt: JSON.stringify(attacks), agent: 'hostile' });
    expect(response.status, response.text).toBe(202);
    await desk.waitForStatus('steer', ['error', 'completed']);

    const task = (await desk.api('GET', '/tasks/steer')).json;
    expect(task.status).toBe('error');
    expect(task.errorMessage).toMatch(/\/\.git was changed \(it points at .*other\/\.git instead of .*\); nothing was committed$/);
    expect(git(other, 'rev-parse', 'HEAD')).toBe(otherTip);
    expect(git(other, 'status', '--porcelain')).toBe('');
    expect(git(desk.repo, 'rev-parse', task.branch)).toBe(git(desk.repo, 'rev-parse', 'main'));
  });

  it('is refused by the desk when it asks to write .git through the file API', async () => {
    const desk = await openDesk({ sandbox: NO_SANDBOX });
    await desk.api('POST', '/', { id: 'ask-steer', prompt: 'write .git gitdir: /elsewhere/.git\nwrite work.txt done' });
    expect(await desk.waitForStatus('ask-steer', ['error', 'completed'])).toBe('completed');
    const task = (await desk.api('GET', '/tasks/ask-steer')).json;
    expect(git(desk.repo, 'show', `${task.commit}:work.txt`)).toBe('done');
    const decisions = (await taskEvents(desk, 'ask-steer')).filter((event) => event.type === 'governance');
    expect(decisions).toContainEqual(expect.objectContaining({ decision: 'rejected', rule: 'git-metadata' }));
  });
});
