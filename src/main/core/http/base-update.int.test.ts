// Two tasks that change the same file: once the first is approved, the second is behind its base, and the way on is an
// update from the base (merge or rebase) and a resolution of its conflicts, never "run it again from scratch".
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../git/git-test-fixture';
import { desksPerTest, type Desk } from '../test-support/desk-harness';

const openDesk = desksPerTest();
const FILES = { 'README.md': '# Fixture\n', 'index.d.ts': 'export {};\n' };

async function completed(d: Desk, id: string, prompt: string) {
  expect((await d.api('POST', '/', { id, prompt })).status).toBe(202);
  await d.waitForStatus(id, 'completed');
  return (await d.api('GET', `/tasks/${id}`)).json;
}

/** Two completed tasks that both rewrite index.d.ts, the first approved: the second is behind and conflicts. */
async function secondBehind(d: Desk) {
  await completed(d, 'first', 'Type A\nwrite index.d.ts export type A = 1;');
  const second = await completed(d, 'second', 'Type B\nwrite index.d.ts export type B = 2;');
  expect((await d.api('POST', '/tasks/first/approve')).status).toBe(200);
  return second;
}

describe('a task whose base moved on', () => {
  it('says how many commits it is behind and ahead of its base', async () => {
    const d = await openDesk({ files: FILES });
    await secondBehind(d);
    const base = await d.api('GET', '/tasks/second/base');
    expect(base.status).toBe(200);
    const onMainOnly = Number(git(d.repo, 'rev-list', '--count', `main`, `^${(await d.api('GET', '/tasks/second')).json.branch}`));
    expect(base.json).toEqual({ baseBranch: 'main', behind: onMainOnly, ahead: 1 });
    expect(base.json.behind).toBeGreaterThan(0);
  });

  it('refuses approval naming the real cause: the base moved on and conflicts in the file', async () => {
    const d = await openDesk({ files: FILES });
    const second = await secondBehind(d);
    const refused = await d.api('POST', '/tasks/second/approve');
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe('base_conflict');
    expect(refused.json.message).toContain(`The base moved on: ${second.branch} conflicts with main in index.d.ts`);
    expect(refused.json.message).not.toMatch(/dependency/i);
    expect(refused.json.details).toMatchObject({ baseBranch: 'main', paths: ['index.d.ts'] });
  });

  it('undoes a rebase that stops on conflicts, leaving the branch exactly as it was', async () => {
    const d = await openDesk({ files: FILES });
    const second = await secondBehind(d);
    const answer = await d.api('POST', '/tasks/second/update', { strategy: 'rebase' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toMatchObject({ outcome: 'undone', strategy: 'rebase', files: ['index.d.ts'], ahead: 1 });
    expect(answer.json.message).toMatch(/undone/);
    expect(git(d.repo, 'rev-parse', second.branch)).toBe(second.commit);
    expect(git(second.worktreePath, 'status', '--porcelain')).toBe('');
    expect(readFileSync(join(second.worktreePath, 'index.d.ts'), 'utf8')).toBe('export type B = 2;\n');
    expect((await d.api('GET', '/tasks/second')).json.conflict).toBeUndefined();
  });

  it('keeps a conflicted merge for resolution: files listed, approval refused until resolved', async () => {
    const d = await openDesk({ files: FILES });
    const second = await secondBehind(d);
    const answer = await d.api('POST', '/tasks/second/update', { strategy: 'merge' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toMatchObject({ outcome: 'conflicted', files: ['index.d.ts'], task: { conflict: { baseBranch: 'main', files: ['index.d.ts'] } } });
    expect(readFileSync(join(second.worktreePath, 'index.d.ts'), 'utf8')).toMatch(/^<<<<<<< /m);
    expect((await d.api('GET', '/tasks/second/base')).json.conflict).toMatchObject({ files: ['index.d.ts'] });

    const approve = await d.api('POST', '/tasks/second/approve');
    expect(approve.status).toBe(409);
    expect(approve.json).toMatchObject({ code: 'conflict_unresolved' });
    expect(approve.json.message).toContain('unresolved conflicts with main in index.d.ts');
    const again = await d.api('POST', '/tasks/second/update', {});
    expect(again.json.code).toBe('conflict_unresolved');
    const early = await d.api('POST', '/tasks/second/resolve', { by: 'person' });
    expect(early.status).toBe(409);
    expect(early.json.details.files).toEqual(['index.d.ts']);
  });

  it('asks the agent to resolve in a follow-up turn that lists the files, commits it, and approval merges both changes', async () => {
    const d = await openDesk({ files: FILES });
    await secondBehind(d);
    await d.api('POST', '/tasks/second/update', { strategy: 'merge' });
    const asked = await d.api('POST', '/tasks/second/resolve', { by: 'agent', note: 'resolve index.d.ts both' });
    expect(asked.status, asked.text).toBe(202);
    await d.waitForStatus('second', 'completed');
    const detail = (await d.api('GET', '/tasks/second')).json;
    expect(detail.conflict).toBeUndefined();
    const turn = detail.turns.at(-1);
    expect(turn).toMatchObject({ turn: 2, status: 'completed', commit: detail.commit });
    expect(turn.prompt).toContain('Conflicted files: index.d.ts');
    expect(turn.prompt).toMatch(/remove every marker line/);
    // The turn's commit concluded the merge: two parents, the second the base's tip.
    expect(git(d.repo, 'rev-list', '--parents', '-n', '1', detail.commit).split(' ')).toHaveLength(3);
    expect((await d.api('GET', '/tasks/second/base')).json).toMatchObject({ behind: 0 });
    const diff = (await d.api('GET', '/api/tasks/second/diff')).json;
    expect(diff.files.map((f: { path: string }) => f.path)).toEqual(['index.d.ts']);

    expect((await d.api('POST', '/tasks/second/approve')).status).toBe(200);
    // Ours (the task's) first, then the base's: both changes are in.
    expect(git(d.repo, 'show', 'main:index.d.ts')).toBe('export type B = 2;\nexport type A = 1;');
  });

  it('commits what the person resolved in their editor once no marker is left', async () => {
    const d = await openDesk({ files: FILES });
    const second = await secondBehind(d);
    await d.api('POST', '/tasks/second/update', { strategy: 'merge' });
    writeFileSync(join(second.worktreePath, 'index.d.ts'), 'export type AB = 3;\n');
    const resolved = await d.api('POST', '/tasks/second/resolve', { by: 'person' });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.json.conflict).toBeUndefined();
    expect((await d.api('POST', '/tasks/second/approve')).status).toBe(200);
    expect(git(d.repo, 'show', 'main:index.d.ts')).toBe('export type AB = 3;');
  });

  it('undoes a conflicted merge back to the branch as it was', async () => {
    const d = await openDesk({ files: FILES });
    const second = await secondBehind(d);
    await d.api('POST', '/tasks/second/update', { strategy: 'merge' });
    const undone = await d.api('POST', '/tasks/second/resolve', { by: 'undo' });
    expect(undone.status, undone.text).toBe(200);
    expect(undone.json.conflict).toBeUndefined();
    expect(git(d.repo, 'rev-parse', second.branch)).toBe(second.commit);
    expect(git(second.worktreePath, 'status', '--porcelain')).toBe('');
    expect((await d.api('POST', '/tasks/second/resolve', { by: 'undo' })).status).toBe(409);
  });
});

describe('an update without conflicts', () => {
  async function behindWithoutConflict(d: Desk) {
    await completed(d, 'one', 'write one.txt 1');
    const two = await completed(d, 'two', 'write two.txt 2');
    expect((await d.api('POST', '/tasks/one/approve')).status).toBe(200);
    return two;
  }

  it('merges the base in with a merge commit, after which the task is no longer behind', async () => {
    const d = await openDesk({ files: FILES });
    const two = await behindWithoutConflict(d);
    const answer = await d.api('POST', '/tasks/two/update', { strategy: 'merge' });
    expect(answer.json).toMatchObject({ outcome: 'updated', strategy: 'merge', behind: 0, files: [] });
    const detail = (await d.api('GET', '/tasks/two')).json;
    expect(detail.commit).not.toBe(two.commit);
    expect(git(d.repo, 'rev-list', '--parents', '-n', '1', detail.commit).split(' ')).toHaveLength(3);
    expect(detail.baseCommit).toBe(git(d.repo, 'rev-parse', 'main'));
    expect((await d.api('GET', '/api/tasks/two/diff')).json.files.map((f: { path: string }) => f.path)).toEqual(['two.txt']);
    expect((await d.api('POST', '/tasks/two/update', { strategy: 'merge' })).json.outcome).toBe('up-to-date');
  });

  it('rebases the task onto the base, one straight line', async () => {
    const d = await openDesk({ files: FILES });
    await behindWithoutConflict(d);
    const answer = await d.api('POST', '/tasks/two/update', { strategy: 'rebase' });
    expect(answer.json).toMatchObject({ outcome: 'updated', strategy: 'rebase', behind: 0, ahead: 1 });
    const detail = (await d.api('GET', '/tasks/two')).json;
    expect(git(d.repo, 'rev-parse', `${detail.commit}^`)).toBe(git(d.repo, 'rev-parse', 'main'));
    expect(git(d.repo, 'rev-parse', detail.branch)).toBe(detail.commit);
    expect((await d.api('POST', '/tasks/two/approve')).status).toBe(200);
    expect(git(d.repo, 'show', 'main:two.txt')).toBe('2');
  });

  it('refuses a strategy it does not know, and a rejected task whose branch is archived', async () => {
    const d = await openDesk({ files: FILES });
    await completed(d, 'x', 'write x.txt 1');
    expect((await d.api('POST', '/tasks/x/update', { strategy: 'squash' })).status).toBe(400);
    await d.api('POST', '/tasks/x/reject');
    const rejected = await d.api('GET', '/tasks/x/base');
    expect(rejected.status).toBe(409);
    expect(rejected.json.message).toMatch(/rejected; its branch is archived/);
    expect((await d.api('POST', '/tasks/x/update', {})).json.code).toBe('task_busy');
  });
});
