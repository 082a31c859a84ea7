import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { worktreeDirNameFor } from './branch-names';
import { createSandbox, git, isolateGitConfig, writeFiles } from './git-test-fixture';
import type { Sandbox } from './git-test-fixture';

let restoreConfig: () => void;
beforeAll(() => { restoreConfig = isolateGitConfig(); });
afterAll(() => restoreConfig());

let sandbox: Sandbox;
afterEach(() => sandbox.cleanup());

const TASK = 'retire me';

async function preparedTask() {
  sandbox = createSandbox({ files: { 'tracked.txt': 'original\n', 'doomed.txt': 'doomed\n' } });
  return sandbox.service.prepareWorktree({ taskId: TASK, baseBranch: 'main', dependencyBranches: [] });
}

function archiveRefs(): string[] {
  const listed = git(sandbox.repo, 'for-each-ref', '--format=%(refname)', 'refs/desk/archive/');
  return listed === '' ? [] : listed.split('\n');
}

function expectGone(path: string, branch: string): void {
  expect(existsSync(path)).toBe(false);
  expect(git(sandbox.repo, 'branch', '--list', branch)).toBe('');
  expect(git(sandbox.repo, 'worktree', 'list', '--porcelain')).not.toContain(path);
}

describe('retire', () => {
  it('commits unfinished work as a snapshot kept under the archive ref, then removes the worktree and branch', async () => {
    const { path, branch } = await preparedTask();
    writeFiles(path, { 'tracked.txt': 'edited by a person\n', 'notes/new.txt': 'brand new\n' });
    rmSync(join(path, 'doomed.txt'));

    const { archiveRef } = await sandbox.service.retire(TASK);

    expect(archiveRef).toMatch(new RegExp(`^refs/desk/archive/${sandbox.deskId}/${worktreeDirNameFor(TASK)}/\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d\\.\\d{3}Z$`));
    expect(git(sandbox.repo, 'log', '-1', '--format=%B', archiveRef!)).toBe(`Unfinished work of task ${TASK} (kept by Assignment Desk)`);
    expect(git(sandbox.repo, 'show', `${archiveRef}:tracked.txt`)).toBe('edited by a person');
    expect(git(sandbox.repo, 'show', `${archiveRef}:notes/new.txt`)).toBe('brand new');
    expect(git(sandbox.repo, 'ls-tree', '--name-only', archiveRef!)).not.toContain('doomed.txt');
    expectGone(path, branch);
    // The person's checkout is untouched.
    expect(git(sandbox.repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(readFileSync(join(sandbox.repo, 'tracked.txt'), 'utf8')).toBe('original\n');
  });

  it('archives the branch tip without a snapshot when the work is already committed', async () => {
    const { path, branch } = await preparedTask();
    writeFiles(path, { 'done.txt': 'done\n' });
    const tip = await sandbox.service.commitAll(path, 'Finished');

    const { archiveRef } = await sandbox.service.retire(TASK);

    expect(git(sandbox.repo, 'rev-parse', archiveRef!)).toBe(tip);
    expectGone(path, branch);
  });

  it('does nothing the second time, and nothing for a task that never ran', async () => {
    await preparedTask();
    await sandbox.service.retire(TASK);
    const refsAfterFirst = archiveRefs();

    await expect(sandbox.service.retire(TASK)).resolves.toEqual({});
    await expect(sandbox.service.retire('never ran')).resolves.toEqual({});
    expect(archiveRefs()).toEqual(refsAfterFirst);
  });

  it('still retires the branch when its worktree directory was deleted by hand', async () => {
    const { path, branch } = await preparedTask();
    writeFiles(path, { 'kept.txt': 'committed before the folder vanished\n' });
    const tip = await sandbox.service.commitAll(path, 'Committed work');
    rmSync(path, { recursive: true, force: true });

    const { archiveRef } = await sandbox.service.retire(TASK);

    expect(git(sandbox.repo, 'rev-parse', archiveRef!)).toBe(tip);
    expectGone(path, branch);
  });

  it('keeps commits made on a detached HEAD in the worktree', async () => {
    const { path, branch } = await preparedTask();
    git(path, 'switch', '--quiet', '--detach');
    writeFiles(path, { 'detached.txt': 'made while detached\n' });
    git(path, 'add', '--all');
    git(path, 'commit', '--quiet', '-m', 'detached work');
    const detached = git(path, 'rev-parse', 'HEAD');

    await sandbox.service.retire(TASK);

    const kept = archiveRefs().map((ref) => git(sandbox.repo, 'rev-parse', ref));
    expect(kept).toContain(detached);
    expectGone(path, branch);
  });

  it('moves a leftover directory git no longer knows aside instead of deleting it', async () => {
    const { path, branch } = await preparedTask();
    writeFiles(path, { 'precious.txt': 'not committed anywhere\n' });
    rmSync(join(path, '.git'));

    await sandbox.service.retire(TASK);

    expectGone(path, branch);
    const aside = readdirSync(sandbox.worktreesDir).filter((name) => name.includes('.stray-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(sandbox.worktreesDir, aside[0]!, 'precious.txt'), 'utf8')).toBe('not committed anywhere\n');
  });
});
