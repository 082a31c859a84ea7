// A new task's files checked out by its agent's launcher, through a real agent process in the real sandbox: the agent
// finds them there with its git's status clean, and a checkout that fails ends the task with git's reason before the
// agent runs.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../git/git-test-fixture';
import { sandboxForTests } from '../sandbox/test-support/sandbox-for-tests';
import { desksPerTest, policyAllowing, scriptedAgent, taskEvents } from '../test-support/desk-harness';

const { skip } = await sandboxForTests();
const openDesk = desksPerTest();

describe.skipIf(skip)(`a new task's checkout made by its agent's launcher${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('gives the agent in the sandbox its files, and its own git an index that matches them', async () => {
    const d = await openDesk({ agents: [scriptedAgent()], policy: policyAllowing('execute') });
    // The marks are computed by the shell, so the prompt (which the events hold too) cannot match them.
    const prompt = 'run test -z "$(git status --porcelain)" && echo "CLEAN-$((6 * 7))"; grep -c Fixture README.md | sed "s/^/README-LINES-/"';
    expect((await d.api('POST', '/', { id: 'first-look', prompt })).status).toBe(202);
    expect(await d.waitForStatus('first-look', ['completed', 'error'])).toBe('completed');
    const events = JSON.stringify(await taskEvents(d, 'first-look'));
    expect(events).toContain('Sandboxed (');
    expect(events).toContain('CLEAN-42');
    expect(events).toContain('README-LINES-1');
  });

  it('ends the task with git\'s reason when the checkout fails, and the agent never runs', async () => {
    const d = await openDesk({ agents: [scriptedAgent()] });
    // The base's tree names a file whose content is in no object: the worktree registers, `git reset --hard` fails.
    const tree = execFileSync('git', ['mktree', '--missing'], { cwd: d.repo, input: `100644 blob ${'ab'.repeat(20)}\tlost.txt\n`, encoding: 'utf8' }).trim();
    const commit = git(d.repo, 'commit-tree', tree, '-p', 'HEAD', '-m', 'a file without its content');
    git(d.repo, 'update-ref', 'refs/heads/main', commit);
    expect((await d.api('POST', '/', { id: 'broken-base', prompt: 'write ran.txt the agent ran' })).status).toBe(202);
    expect(await d.waitForStatus('broken-base', ['completed', 'error'])).toBe('error');
    const task = (await d.api('GET', '/tasks/broken-base')).json as { errorMessage: string; worktreePath: string };
    expect(task.errorMessage).toContain('could not be checked out in its new worktree (git reset --hard exited with 128)');
    expect(task.errorMessage).toContain('ababababab');
    const events = JSON.stringify(await taskEvents(d, 'broken-base'));
    expect(events).not.toContain('"type":"agent"');
    // Undone as when the desk's own checkout fails: no worktree, no admin dir in the repository, no branch.
    expect(existsSync(task.worktreePath)).toBe(false);
    expect(readdirSync(join(d.repo, '.git', 'worktrees'))).toEqual([]);
    expect(git(d.repo, 'for-each-ref', 'refs/heads/desk')).toBe('');
  });
});
