// Two desks (two data dirs) on one repository, and branches the desk did not make: each desk names
// its own branches and never deletes or moves one it did not create and record.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { worktreeDirNameFor } from './branch-names';
import { loadDeskId } from './desk-id';
import { anotherDesk, createSandbox, git, isolateGitConfig, writeFiles, type Sandbox } from './git-test-fixture';

let restoreConfig: () => void;
beforeAll(() => { restoreConfig = isolateGitConfig(); });
afterAll(() => restoreConfig());

let sandbox: Sandbox;
afterEach(() => sandbox.cleanup());

const TASK = 'same task';
const tipOf = (branch: string) => git(sandbox.repo, 'for-each-ref', '--format=%(objectname)', `refs/heads/${branch}`);

describe('two desks on one repository', () => {
  it('prepare, commit and retire tasks with the same id without touching each other\'s branches', async () => {
    sandbox = createSandbox();
    const a = sandbox.service;
    const b = anotherDesk(sandbox, 'otherdsk').service;
    expect(a.branchFor(TASK)).toBe(`desk/testdesk/${worktreeDirNameFor(TASK)}`);
    expect(b.branchFor(TASK)).toBe(`desk/otherdsk/${worktreeDirNameFor(TASK)}`);

    const inA = await a.prepareWorktree({ taskId: TASK, baseBranch: 'main', dependencyBranches: [] });
    writeFiles(inA.path, { 'a.txt': 'from desk a\n' });
    const commitA = await a.commitAll(inA.path, 'desk a');
    const inB = await b.prepareWorktree({ taskId: TASK, baseBranch: 'main', dependencyBranches: [] });
    writeFiles(inB.path, { 'b.txt': 'from desk b\n' });
    const commitB = await b.commitAll(inB.path, 'desk b');
    expect(tipOf(inA.branch)).toBe(commitA);

    // Desk a runs the task again (retiring its own first run), then retires it for good.
    const again = await a.prepareWorktree({ taskId: TASK, baseBranch: 'main', dependencyBranches: [] });
    expect(tipOf(inB.branch)).toBe(commitB);
    expect(readFileSync(join(inB.path, 'b.txt'), 'utf8')).toBe('from desk b\n');
    writeFiles(again.path, { 'a2.txt': 'again\n' });
    const commitA2 = await a.commitAll(again.path, 'desk a again');
    await a.retire(TASK);
    expect(tipOf(inB.branch)).toBe(commitB);
    expect(git(inB.path, 'status', '--porcelain')).toBe('');

    // Desk b's retirement leaves desk a's archive alone, and a's next run starts clean.
    const { archiveRef } = await b.retire(TASK);
    expect(archiveRef).toMatch(/^refs\/desk\/archive\/otherdsk\//);
    expect(tipOf(inB.branch)).toBe('');
    const archivedByA = git(sandbox.repo, 'for-each-ref', '--format=%(objectname)', 'refs/desk/archive/testdesk/').split('\n');
    expect(archivedByA.sort()).toEqual([commitA, commitA2].sort());
  });
});

describe('a branch the desk did not make', () => {
  it('is never deleted or moved, even when it has the name the desk would give the task', async () => {
    sandbox = createSandbox();
    const branch = sandbox.service.branchFor(TASK);
    git(sandbox.repo, 'branch', branch);
    const theirs = tipOf(branch);

    await expect(sandbox.service.prepareWorktree({ taskId: TASK, baseBranch: 'main', dependencyBranches: [] })).rejects.toMatchObject({ code: 'branch_taken' });
    await sandbox.service.retire(TASK);
    expect(tipOf(branch)).toBe(theirs);
    expect(git(sandbox.repo, 'for-each-ref', 'refs/desk/archive/')).toBe('');
  });

  it('of an older desk (named without a desk id) survives a new run of the task, which can still merge it in as a dependency', async () => {
    sandbox = createSandbox();
    const legacy = `desk/${worktreeDirNameFor('old')}`;
    git(sandbox.repo, 'switch', '--quiet', '--create', legacy);
    writeFiles(sandbox.repo, { 'old.txt': 'old work\n' });
    git(sandbox.repo, 'add', '--all');
    git(sandbox.repo, 'commit', '--quiet', '-m', 'old work');
    git(sandbox.repo, 'switch', '--quiet', 'main');
    const oldTip = tipOf(legacy);

    const fresh = await sandbox.service.prepareWorktree({ taskId: 'old', baseBranch: 'main', dependencyBranches: [] });
    await sandbox.service.retire('old');
    const next = await sandbox.service.prepareWorktree({ taskId: 'next', baseBranch: 'main', dependencyBranches: [legacy] });
    expect(fresh.branch).not.toBe(legacy);
    expect(tipOf(legacy)).toBe(oldTip);
    expect(readFileSync(join(next.path, 'old.txt'), 'utf8')).toBe('old work\n');
  });
});

describe('the desk id', () => {
  it('is made once per data dir and kept', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'desk-id-'));
    try {
      const first = await loadDeskId(dataDir);
      expect(first).toMatch(/^[a-z2-7]{8}$/);
      expect(await loadDeskId(dataDir)).toBe(first);
      expect(await loadDeskId(mkdtempSync(join(dataDir, 'other-')))).not.toBe(first);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
