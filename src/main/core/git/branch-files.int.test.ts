// Branches read from git's ref files: the same answers as git's own, and "ask git" wherever the files are not plain.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { branchInFiles, shaInPackedRefs } from './branch-files';
import { commitFiles, createSandbox, git, isolateGitConfig } from './git-test-fixture';
import type { Sandbox } from './git-test-fixture';

let restoreConfig: () => void;
beforeAll(() => { restoreConfig = isolateGitConfig(); });
afterAll(() => restoreConfig());

let sandbox: Sandbox;
afterEach(() => sandbox.cleanup());
const commonDir = () => join(sandbox.repo, '.git');

describe('branchInFiles', () => {
  it('finds a loose branch at the commit git resolves it to', async () => {
    sandbox = createSandbox();
    expect(await branchInFiles(commonDir(), 'main')).toEqual({ kind: 'found', commit: git(sandbox.repo, 'rev-parse', 'main') });
  });

  it('finds a packed branch, and the loose one over it once the branch moves after packing', async () => {
    sandbox = createSandbox();
    git(sandbox.repo, 'branch', 'feature/x');
    git(sandbox.repo, 'pack-refs', '--all');
    expect(await branchInFiles(commonDir(), 'feature/x')).toEqual({ kind: 'found', commit: git(sandbox.repo, 'rev-parse', 'feature/x') });
    commitFiles(sandbox.repo, { 'b.txt': 'b\n' });
    git(sandbox.repo, 'branch', '--force', 'feature/x', 'main');
    expect(await branchInFiles(commonDir(), 'feature/x')).toEqual({ kind: 'found', commit: git(sandbox.repo, 'rev-parse', 'main') });
  });

  it('says absent for a branch neither loose nor packed, even one whose name starts another', async () => {
    sandbox = createSandbox();
    git(sandbox.repo, 'branch', 'feature-long');
    git(sandbox.repo, 'pack-refs', '--all');
    expect(await branchInFiles(commonDir(), 'feature')).toEqual({ kind: 'absent' });
  });

  it('leaves a linked ref, a reftable repository and a name with dot parts to git', async () => {
    sandbox = createSandbox();
    symlinkSync(join(commonDir(), 'refs', 'heads', 'main'), join(commonDir(), 'refs', 'heads', 'linked'));
    expect(await branchInFiles(commonDir(), 'linked')).toBeUndefined();
    expect(await branchInFiles(commonDir(), '../../HEAD')).toBeUndefined();
    mkdirSync(join(commonDir(), 'reftable'));
    expect(await branchInFiles(commonDir(), 'main')).toBeUndefined();
  });

  it('leaves a ref file that holds no plain sha to git', async () => {
    sandbox = createSandbox();
    writeFileSync(join(commonDir(), 'refs', 'heads', 'odd'), 'ref: refs/heads/main\n');
    expect(await branchInFiles(commonDir(), 'odd')).toBeUndefined();
  });
});

describe('shaInPackedRefs', () => {
  it('reads a ref and skips the header and the peeled lines of tags', () => {
    const text = '# pack-refs with: peeled fully-peeled sorted \naaa refs/heads/main\nbbb refs/tags/v1\n^ccc\n';
    expect(shaInPackedRefs(text, 'refs/heads/main')).toBe('aaa');
    expect(shaInPackedRefs(text, 'refs/heads/mai')).toBeUndefined();
  });
});

describe('a new task on a repository whose branches are packed', () => {
  it('starts from the packed base and refuses a packed branch of its name that the desk did not make', async () => {
    sandbox = createSandbox();
    const branch = sandbox.service.branchFor('taken');
    git(sandbox.repo, 'branch', branch);
    git(sandbox.repo, 'pack-refs', '--all');

    const worktree = await sandbox.service.prepareWorktree({ taskId: 'fresh', baseBranch: 'main', dependencyBranches: [] });
    expect(worktree.baseCommit).toBe(git(sandbox.repo, 'rev-parse', 'main'));
    await expect(sandbox.service.prepareWorktree({ taskId: 'taken', baseBranch: 'main', dependencyBranches: [] })).rejects.toMatchObject({ code: 'branch_taken' });
  });
});
