// A task whose agent rewrote its worktree's .git file ends in error with the desk's reason, and
// nothing is committed anywhere.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFiles, git } from '../git/git-test-fixture';
import { desksPerTest } from '../test-support/desk-harness';

const openDesk = desksPerTest();

describe('a task whose agent rewrote its .git file', () => {
  it('ends in error naming the file, with no commit in the other repository or on its branch', async () => {
    const desk = await openDesk();
    const other = join(desk.root, 'other');
    mkdirSync(other);
    git(other, 'init', '--quiet', '--initial-branch=main');
    const otherTip = commitFiles(other, { 'theirs.txt': 'theirs\n' });
    const response = await desk.api('POST', '/', { id: 'steer', prompt: `Point git elsewhere\nwrite work.txt done\nwrite .git gitdir: ${join(other, '.git')}` });
    expect(response.status, response.text).toBe(202);
    await desk.waitForStatus('steer', ['error', 'completed']);

    const task = (await desk.api('GET', '/tasks/steer')).json;
    expect(task.status).toBe('error');
    expect(task.errorMessage).toMatch(/\/\.git was changed \(it points at .*other\/\.git instead of .*\); nothing was committed$/);
    expect(git(other, 'rev-parse', 'HEAD')).toBe(otherTip);
    expect(git(other, 'status', '--porcelain')).toBe('');
    expect(git(desk.repo, 'rev-parse', task.branch)).toBe(git(desk.repo, 'rev-parse', 'main'));
  });
});
