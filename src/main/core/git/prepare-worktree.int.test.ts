import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, git, isolateGitConfig, writeFiles } from './git-test-fixture';
import type { Sandbox } from './git-test-fixture';
import { checkoutFirst, type CheckoutStep } from './checkout-first';
import type { PendingCheckout } from './pending-checkout';

let restoreConfig: () => void;
beforeAll(() => { restoreConfig = isolateGitConfig(); });
afterAll(() => restoreConfig());

let sandbox: Sandbox;
afterEach(() => sandbox.cleanup());

/** A finished dependency task: its own worktree with `files` committed on its branch. */
async function finishedTask(taskId: string, files: Record<string, string>): Promise<string> {
  const { path, branch } = await sandbox.service.prepareWorktree({ taskId, baseBranch: 'main', dependencyBranches: [] });
  writeFiles(path, files);
  await sandbox.service.commitAll(path, `Work of ${taskId}`);
  return branch;
}

describe('prepareWorktree', () => {
  it('gives the task a worktree on its own branch holding the base branch files, outside the repository', async () => {
    sandbox = createSandbox({ files: { 'README.md': '# project\n', 'src/app.ts': 'export {};\n' } });
    const userHead = git(sandbox.repo, 'rev-parse', 'HEAD');

    const worktree = await sandbox.service.prepareWorktree({ taskId: 'add login', baseBranch: 'main', dependencyBranches: [] });

    expect(worktree.branch).toBe(sandbox.service.branchFor('add login'));
    expect(worktree.path).toBe(sandbox.service.worktreePathFor('add login'));
    expect(worktree.path.startsWith(sandbox.worktreesDir)).toBe(true);
    expect(worktree.baseCommit).toBe(userHead);
    expect(readFileSync(join(worktree.path, 'src/app.ts'), 'utf8')).toBe('export {};\n');
    expect(git(worktree.path, 'symbolic-ref', '--short', 'HEAD')).toBe(worktree.branch);
    expect(git(worktree.path, 'rev-parse', 'HEAD')).toBe(userHead);
    // The person's checkout is exactly as it was.
    expect(git(sandbox.repo, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
    expect(git(sandbox.repo, 'rev-parse', 'HEAD')).toBe(userHead);
    expect(git(sandbox.repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });

  it('merges every dependency branch in, so the task sees their files and descends from their commits', async () => {
    sandbox = createSandbox();
    const api = await finishedTask('api', { 'api.ts': 'api\n' });
    const ui = await finishedTask('ui', { 'ui.ts': 'ui\n' });

    const worktree = await sandbox.service.prepareWorktree({ taskId: 'wire up', baseBranch: 'main', dependencyBranches: [api, ui] });

    expect(readFileSync(join(worktree.path, 'api.ts'), 'utf8')).toBe('api\n');
    expect(readFileSync(join(worktree.path, 'ui.ts'), 'utf8')).toBe('ui\n');
    const head = git(worktree.path, 'rev-parse', 'HEAD');
    expect(await sandbox.service.isAncestor(api, head)).toBe(true);
    expect(await sandbox.service.isAncestor(ui, head)).toBe(true);
    expect(await sandbox.service.isAncestor(head, api)).toBe(false);
    expect(git(worktree.path, 'log', '--merges', '--format=%s').split('\n')).toEqual([
      `Merge dependency ${ui} into ${worktree.branch}`,
      `Merge dependency ${api} into ${worktree.branch}`,
    ]);
    expect(git(worktree.path, 'status', '--porcelain')).toBe('');
  });

  it('reports conflicting dependencies with the conflicting path and leaves no worktree or merge behind', async () => {
    sandbox = createSandbox({ files: { 'shared.txt': 'base\n' } });
    const left = await finishedTask('left', { 'shared.txt': 'left\n' });
    const right = await finishedTask('right', { 'shared.txt': 'right\n' });

    const error = await sandbox.service
      .prepareWorktree({ taskId: 'both', baseBranch: 'main', dependencyBranches: [left, right] })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'merge_conflict', details: { branch: right, paths: ['shared.txt'] } });
    expect((error as Error).message).toContain('shared.txt');
    expect(existsSync(sandbox.service.worktreePathFor('both'))).toBe(false);
    expect(git(sandbox.repo, 'branch', '--list', sandbox.service.branchFor('both'))).toBe('');
    expect(git(sandbox.repo, 'worktree', 'list', '--porcelain')).not.toContain(sandbox.service.worktreePathFor('both'));
    expect(git(sandbox.repo, 'status', '--porcelain')).toBe('');
    expect(existsSync(join(sandbox.repo, '.git', 'MERGE_HEAD'))).toBe(false);
    const perWorktree = join(sandbox.repo, '.git', 'worktrees');
    for (const name of existsSync(perWorktree) ? readdirSync(perWorktree) : []) {
      expect(existsSync(join(perWorktree, name, 'MERGE_HEAD'))).toBe(false);
    }
  });

  it('starts a second run of the same task fresh from the base, keeping the first run\'s commit in the archive', async () => {
    sandbox = createSandbox();
    const first = await sandbox.service.prepareWorktree({ taskId: 'again', baseBranch: 'main', dependencyBranches: [] });
    writeFiles(first.path, { 'first-run.txt': 'first\n' });
    const firstCommit = await sandbox.service.commitAll(first.path, 'First run');

    const second = await sandbox.service.prepareWorktree({ taskId: 'again', baseBranch: 'main', dependencyBranches: [] });

    expect(second.path).toBe(first.path);
    expect(existsSync(join(second.path, 'first-run.txt'))).toBe(false);
    expect(git(second.path, 'rev-parse', 'HEAD')).toBe(second.baseCommit);
    expect(await sandbox.service.isAncestor(firstCommit, second.branch)).toBe(false);
    const archived = git(sandbox.repo, 'for-each-ref', '--format=%(objectname)', 'refs/desk/archive/');
    expect(archived.split('\n')).toEqual([firstCommit]);
  });

  it('commits a task whose worktree git named otherwise, its usual name being taken in the repository', async () => {
    sandbox = createSandbox();
    const path = sandbox.service.worktreePathFor('taken');
    // A folder of that name among the repository's worktrees makes git add a number to the new one's.
    mkdirSync(join(sandbox.repo, '.git', 'worktrees', basename(path)), { recursive: true });
    const worktree = await sandbox.service.prepareWorktree({ taskId: 'taken', baseBranch: 'main', dependencyBranches: [] });
    expect(readFileSync(join(worktree.path, '.git'), 'utf8')).toContain(`${basename(path)}1`);
    writeFiles(worktree.path, { 'done.txt': 'done\n' });
    const commit = await sandbox.service.commitChanges(worktree.path, 'Work of taken');
    expect(git(sandbox.repo, 'rev-parse', worktree.branch)).toBe(commit);
    expect(git(sandbox.repo, 'show', `${worktree.branch}:done.txt`)).toBe('done');
  });

  it('prepares eight tasks at once without tripping over git\'s locks', async () => {
    sandbox = createSandbox();
    const ids = Array.from({ length: 8 }, (_, index) => `task ${index}`);
    // allSettled, so a failure is reported only after every git process has finished.
    const results = await Promise.allSettled(
      ids.map((taskId) => sandbox.service.prepareWorktree({ taskId, baseBranch: 'main', dependencyBranches: [] })),
    );
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    const worktrees = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    for (const worktree of worktrees) {
      expect(readFileSync(join(worktree.path, 'README.md'), 'utf8')).toBe('# project\n');
      expect(git(worktree.path, 'symbolic-ref', '--short', 'HEAD')).toBe(worktree.branch);
    }
    expect(new Set(worktrees.map((worktree) => worktree.path)).size).toBe(8);
  });

  it('refuses a dependency branch that does not exist, before making anything', async () => {
    sandbox = createSandbox();
    const error = await sandbox.service
      .prepareWorktree({ taskId: 'needs ghost', baseBranch: 'main', dependencyBranches: ['desk/ghost'] })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'unknown_branch', details: { branch: 'desk/ghost' } });
    expect(existsSync(sandbox.service.worktreePathFor('needs ghost'))).toBe(false);
  });
});

describe('prepareWorktree with the checkout left to the agent\'s launcher', () => {
  const files = { 'README.md': '# project\n', 'src/app.ts': 'export {};\n', 'bin/run.sh': '#!/bin/sh\n' };

  it('registers the worktree, and the launcher\'s checkout leaves it as the desk\'s own would, index copied for the agent', async () => {
    sandbox = createSandbox({ files });
    git(sandbox.repo, 'update-index', '--chmod=+x', 'bin/run.sh');
    git(sandbox.repo, 'commit', '-q', '-m', 'executable');
    const deferred = await sandbox.service.prepareWorktree({ taskId: 'later', baseBranch: 'main', dependencyBranches: [], deferCheckout: true });
    const now = await sandbox.service.prepareWorktree({ taskId: 'now', baseBranch: 'main', dependencyBranches: [] });
    expect(now.checkout).toBeUndefined();
    const checkout = deferred.checkout as PendingCheckout;
    expect(checkout.started).toBe(false);
    expect(readdirSync(deferred.path)).toEqual(['.git']);

    const agentIndex = join(sandbox.root, 'agent-index');
    const step = await checkout.step(agentIndex) as CheckoutStep;
    const launch = checkoutFirst(step, '/bin/sh', ['-c', 'echo launched']);
    const launched = spawnSync(launch.command, launch.args, { cwd: deferred.path, encoding: 'utf8' });
    expect(launched.stdout).toBe('launched\n');
    expect(launched.status).toBe(0);

    expect(git(deferred.path, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(git(deferred.path, 'ls-files', '--stage')).toBe(git(now.path, 'ls-files', '--stage'));
    expect(readdirSync(deferred.path).sort()).toEqual(readdirSync(now.path).sort());
    expect(statSync(join(deferred.path, 'bin/run.sh')).mode & 0o111).not.toBe(0);
    const worktreeIndex = join(git(deferred.path, 'rev-parse', '--absolute-git-dir'), 'index');
    expect(readFileSync(agentIndex)).toEqual(readFileSync(worktreeIndex));
  });

  it('checks out in the desk\'s own git once when asked first, and leaves nothing pending with dependencies to merge', async () => {
    sandbox = createSandbox({ files });
    const dependency = await finishedTask('dependency', { 'lib.ts': 'export const lib = 1;\n' });
    const merged = await sandbox.service.prepareWorktree({ taskId: 'merged', baseBranch: 'main', dependencyBranches: [dependency], deferCheckout: true });
    expect(merged.checkout).toBeUndefined();
    expect(readFileSync(join(merged.path, 'lib.ts'), 'utf8')).toBe('export const lib = 1;\n');

    const deferred = await sandbox.service.prepareWorktree({ taskId: 'asked', baseBranch: 'main', dependencyBranches: [], deferCheckout: true });
    const checkout = deferred.checkout as PendingCheckout;
    await Promise.all([checkout.now(), checkout.now()]);
    expect(checkout.started).toBe(true);
    expect(readFileSync(join(deferred.path, 'src/app.ts'), 'utf8')).toBe('export {};\n');
    expect(git(deferred.path, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });
});

describe('base branch checks', () => {
  it('names the branch the person has checked out', async () => {
    sandbox = createSandbox();
    git(sandbox.repo, 'switch', '--quiet', '--create', 'feature/x');
    await expect(sandbox.service.currentBranch()).resolves.toBe('feature/x');
  });

  it('accepts a branch with commits', async () => {
    sandbox = createSandbox();
    await expect(sandbox.service.assertUsableBase('main')).resolves.toBeUndefined();
  });

  it('refuses the branch of a repository without commits as empty', async () => {
    sandbox = createSandbox({ empty: true });
    const error = await sandbox.service.assertUsableBase('main').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'empty_repository', details: { branch: 'main' } });
  });

  it('refuses a branch that does not exist as unknown', async () => {
    sandbox = createSandbox();
    const error = await sandbox.service.assertUsableBase('nope').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'unknown_branch', details: { branch: 'nope' } });
  });

  it('refuses to prepare a task on an empty repository', async () => {
    sandbox = createSandbox({ empty: true });
    await expect(sandbox.service.prepareWorktree({ taskId: 't', baseBranch: 'main', dependencyBranches: [] }))
      .rejects.toMatchObject({ code: 'empty_repository' });
  });
});
