// GET /api/tasks/<id>/diff while the agent is not done: it shows the worktree's files as they are, uncommitted ones
// included, and the agent's own index stays as the agent left it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFiles, git } from '../git/git-test-fixture';
import { desksPerTest, policyAllowing } from '../test-support/desk-harness';

const openDesk = desksPerTest();

describe('the diff of a task that is not done', () => {
  it('shows the file the agent wrote while its question is open, marked live', async () => {
    const d = await openDesk();
    await d.api('POST', '/', { id: 'waits', prompt: 'write hello.txt hi there\nask May I go on?\nwrite later.txt after' });
    await d.waitForStatus('waits', 'awaiting-input');

    const diff = await d.api('GET', '/api/tasks/waits/diff');
    expect(diff.status, diff.text).toBe(200);
    expect(diff.json.live).toBe(true);
    expect(diff.json.files).toEqual([expect.objectContaining({ path: 'hello.txt', status: 'added', additions: 1, newText: 'hi there\n' })]);
  });

  it('leaves the worktree index untouched, so the commit at the end still holds every file', async () => {
    const d = await openDesk();
    await d.api('POST', '/', { id: 'untouched', prompt: 'write a.txt one\nask Continue?\nwrite b.txt two' });
    await d.waitForStatus('untouched', 'awaiting-input');
    const { worktreePath } = (await d.api('GET', '/tasks/untouched')).json;
    expect((await d.api('GET', '/api/tasks/untouched/diff')).status).toBe(200);
    // The agent's view of git: nothing staged by the desk's look.
    expect(git(worktreePath, 'diff', '--cached', '--name-only')).toBe('');

    const question = (await d.api('GET', '/tasks/untouched')).json.openQuestions[0];
    await d.api('POST', '/tasks/untouched/input', { questionId: question.id, optionId: 'allow' });
    await d.waitForStatus('untouched', 'completed');
    const done = await d.api('GET', '/api/tasks/untouched/diff');
    expect(done.json.live).toBeUndefined();
    expect(done.json.files.map((f: { path: string }) => f.path).sort()).toEqual(['a.txt', 'b.txt']);
    expect(readFileSync(join(worktreePath, 'b.txt'), 'utf8')).toBe('two\n');
  });

  it('shows a deletion and an edit of committed files as they stand in the worktree', async () => {
    const d = await openDesk({ files: { 'README.md': '# Fixture\n', 'old.txt': 'gone soon\n' }, policy: policyAllowing('delete') });
    await d.api('POST', '/', { id: 'edits', prompt: 'append README.md more\ndelete old.txt\nask Keep going?' });
    await d.waitForStatus('edits', 'awaiting-input');
    const files = (await d.api('GET', '/api/tasks/edits/diff')).json.files;
    expect(files).toEqual(expect.arrayContaining([
      expect.objectContaining({ path: 'README.md', status: 'modified', additions: 1, newText: '# Fixture\nmore\n' }),
      expect.objectContaining({ path: 'old.txt', status: 'deleted', deletions: 1 }),
    ]));
  });

  it("reads nothing through a worktree whose .git an agent pointed at another repository, and says why", async () => {
    const d = await openDesk();
    const other = join(d.root, 'other');
    mkdirSync(other);
    git(other, 'init', '--quiet', '--initial-branch=main');
    const otherTip = commitFiles(other, { 'theirs.txt': 'theirs\n' });
    await d.api('POST', '/', { id: 'steered', prompt: 'write mine.txt mine\nask Wait here' });
    await d.waitForStatus('steered', 'awaiting-input');
    // What an agent's own process could write (the sandbox keeps the file read-only; this is the desk's own check).
    const { worktreePath } = (await d.api('GET', '/tasks/steered')).json;
    writeFileSync(join(worktreePath, '.git'), `gitdir: ${join(other, '.git')}\n`);

    const diff = await d.api('GET', '/api/tasks/steered/diff');
    expect(diff.status).toBe(409);
    expect(diff.json.message).toMatch(/\.git was changed/);
    expect(git(other, 'status', '--porcelain')).toBe('');
    expect(git(other, 'rev-parse', 'HEAD')).toBe(otherTip);
  });
});
