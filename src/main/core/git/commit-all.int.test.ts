import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hasUncommittedWork } from './commit-all';
import { createGitRunner } from './git-runner';
import { createSandbox, git, isolateGitConfig, writeFiles } from './git-test-fixture';
import type { Sandbox } from './git-test-fixture';

let restoreConfig: () => void;
beforeAll(() => { restoreConfig = isolateGitConfig(); });
afterAll(() => restoreConfig());

let sandbox: Sandbox;
afterEach(() => sandbox.cleanup());

async function preparedTask(files: Record<string, string> = { 'keep.txt': 'keep\n', 'change.txt': 'old\n', 'remove.txt': 'bye\n' }) {
  sandbox = createSandbox({ files });
  return sandbox.service.prepareWorktree({ taskId: 'task-1', baseBranch: 'main', dependencyBranches: [] });
}

describe('commitAll', () => {
  it('commits new, modified and deleted files, and returns the sha git shows for HEAD', async () => {
    const { path } = await preparedTask();
    writeFiles(path, { 'new/file.txt': 'new\n', 'change.txt': 'new content\n' });
    rmSync(join(path, 'remove.txt'));

    const sha = await sandbox.service.commitAll(path, 'Do the work');

    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    expect(git(path, 'rev-parse', 'HEAD')).toBe(sha);
    expect(git(path, 'status', '--porcelain')).toBe('');
    expect(git(path, 'diff-tree', '--no-commit-id', '--name-status', '-r', sha).split('\n').sort())
      .toEqual(['A\tnew/file.txt', 'D\tremove.txt', 'M\tchange.txt']);
  });

  it('still makes a commit when nothing changed', async () => {
    const { path, baseCommit } = await preparedTask();
    const sha = await sandbox.service.commitAll(path, 'Nothing to say');
    expect(sha).not.toBe(baseCommit);
    expect(git(path, 'rev-parse', 'HEAD^')).toBe(baseCommit);
  });

  it('keeps a multi-line message exactly, blank lines, indentation and # lines included', async () => {
    const { path } = await preparedTask();
    const message = 'Add login form\n\nPrompt:\n  make a login form\n\n\n# not a comment\n--upload-pack=not-an-option\n\nTask-Id: task-1\n';
    const sha = await sandbox.service.commitAll(path, message);
    const raw = git(path, 'cat-file', 'commit', sha) + '\n';
    expect(raw.slice(raw.indexOf('\n\n') + 2)).toBe(message);
  });

  it('runs no repository hook: a failing pre-commit hook does not stop it and post-commit never runs', async () => {
    const { path } = await preparedTask();
    const hooks = join(sandbox.repo, '.git', 'hooks');
    const marker = join(sandbox.root, 'post-commit-ran');
    writeFileSync(join(hooks, 'pre-commit'), '#!/bin/sh\necho "pre-commit says no" >&2\nexit 1\n');
    writeFileSync(join(hooks, 'post-commit'), `#!/bin/sh\ntouch '${marker}'\n`);
    chmodSync(join(hooks, 'pre-commit'), 0o755);
    chmodSync(join(hooks, 'post-commit'), 0o755);
    // The hooks are live for a person's own git: the fixture's commit is refused.
    writeFiles(path, { 'a.txt': 'a\n' });
    expect(() => execGitCommit(path)).toThrow(/pre-commit says no/);

    const sha = await sandbox.service.commitAll(path, 'Agent turn');

    expect(git(path, 'rev-parse', 'HEAD')).toBe(sha);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(sandbox.hooksDir)).toBe(true);
  });

  it('ignores a hooks folder the repository configures itself (husky style), for worktree creation too', async () => {
    sandbox = createSandbox();
    const hooks = join(sandbox.repo, '.husky');
    const marker = join(sandbox.root, 'hook-ran');
    writeFiles(hooks, {
      'pre-commit': '#!/bin/sh\nexit 1\n',
      'post-checkout': `#!/bin/sh\necho post-checkout >> '${marker}'\n`,
      'post-commit': `#!/bin/sh\necho post-commit >> '${marker}'\n`,
    });
    for (const hook of ['pre-commit', 'post-checkout', 'post-commit']) chmodSync(join(hooks, hook), 0o755);
    execGit(sandbox.repo, 'config', 'core.hooksPath', '.husky');

    const { path } = await sandbox.service.prepareWorktree({ taskId: 'husky', baseBranch: 'main', dependencyBranches: [] });
    await expect(sandbox.service.commitAll(path, 'Agent turn')).resolves.toMatch(/^[0-9a-f]{40}$/);
    expect(existsSync(marker)).toBe(false);
  });

  it('reports a worktree folder that does not exist as a git failure', async () => {
    sandbox = createSandbox();
    const error = await sandbox.service.commitAll(join(sandbox.root, 'missing'), 'x').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'git_failed' });
  });

  it('commits as Assignment Desk where no git identity is configured', async () => {
    const { path } = await preparedTask();
    expect(() => execGit(path, 'config', '--get', 'user.name')).toThrow();
    const sha = await sandbox.service.commitAll(path, 'Agent turn');
    expect(git(path, 'log', '-1', '--format=%an <%ae>|%cn <%ce>', sha))
      .toBe('Assignment Desk <assignment-desk@localhost>|Assignment Desk <assignment-desk@localhost>');
  });

  it('keeps the identity the repository has configured', async () => {
    const { path } = await preparedTask();
    execGit(sandbox.repo, 'config', 'user.name', 'Ada Lovelace');
    execGit(sandbox.repo, 'config', 'user.email', 'ada@example.test');
    const sha = await sandbox.service.commitAll(path, 'Agent turn');
    expect(git(path, 'log', '-1', '--format=%an <%ae>|%cn <%ce>', sha)).toBe('Ada Lovelace <ada@example.test>|Ada Lovelace <ada@example.test>');
  });

  it('is not stopped by a global commit.gpgsign=true', async () => {
    const { path } = await preparedTask();
    execGit(sandbox.repo, 'config', '--global', 'commit.gpgsign', 'true');
    execGit(sandbox.repo, 'config', '--global', 'gpg.program', '/bin/false');
    try {
      await expect(sandbox.service.commitAll(path, 'Agent turn')).resolves.toMatch(/^[0-9a-f]{40}$/);
    } finally {
      execGit(sandbox.repo, 'config', '--global', '--remove-section', 'commit');
      execGit(sandbox.repo, 'config', '--global', '--remove-section', 'gpg');
    }
  });
});

// The fixture's `git` adds an identity; this runs git with nothing but the isolated config.
function execGit(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}
// A person's own commit, hooks and all.
function execGitCommit(cwd: string): void {
  git(cwd, 'add', '--all');
  execFileSync('git', ['-c', 'user.name=Fixture', '-c', 'user.email=f@example.test', 'commit', '-m', 'by hand'], { cwd, stdio: 'pipe' });
}

describe('commitChanges', () => {
  it('commits what the turn changed and returns the sha git shows for HEAD', async () => {
    const { path, baseCommit } = await preparedTask();
    writeFiles(path, { 'new/file.txt': 'new\n' });

    const sha = await sandbox.service.commitChanges(path, 'Add a file');

    expect(sha).toBe(git(path, 'rev-parse', 'HEAD'));
    expect(git(path, 'rev-parse', 'HEAD^')).toBe(baseCommit);
    expect(git(path, 'status', '--porcelain')).toBe('');
  });

  it('makes no commit and returns nothing when the turn changed no file', async () => {
    const { path, baseCommit } = await preparedTask();

    expect(await sandbox.service.commitChanges(path, 'Nothing to say')).toBeUndefined();
    expect(git(path, 'rev-parse', 'HEAD')).toBe(baseCommit);
  });

  it('names the commit it made even when the branch was packed before', async () => {
    const { path } = await preparedTask();
    git(path, 'pack-refs', '--all');
    writeFiles(path, { 'late.txt': 'late\n' });

    expect(await sandbox.service.commitChanges(path, 'After packing')).toBe(git(path, 'rev-parse', 'HEAD'));
  });
});

describe('vendor-local files (an agent\'s own settings and notes)', () => {
  const SETTINGS = '.claude/settings.local.json';
  const grant = '{"permissions":{"allow":["Bash"]}}\n';
  const committedFiles = (path: string, sha: string) => git(path, 'diff-tree', '--no-commit-id', '--name-only', '-r', sha).split('\n').sort();

  it('are left out of the commit, named, and left in the worktree', async () => {
    const { path } = await preparedTask();
    writeFiles(path, { 'a.txt': 'a\n', [SETTINGS]: grant, 'CLAUDE.local.md': 'notes\n' });
    expect(await sandbox.service.leaveOutLocalFiles(path)).toEqual([
      { path: SETTINGS, what: "Claude Code's local settings" }, { path: 'CLAUDE.local.md', what: "Claude Code's local notes" },
    ]);
    const sha = await sandbox.service.commitChanges(path, 'Work');
    expect(committedFiles(path, sha as string)).toEqual(['a.txt']);
    expect(readFileSync(join(path, SETTINGS), 'utf8')).toBe(grant);
  });

  it('are taken out of the index when the agent staged them itself', async () => {
    const { path } = await preparedTask();
    writeFiles(path, { 'a.txt': 'a\n', [SETTINGS]: grant });
    git(path, 'add', '-A');
    expect((await sandbox.service.leaveOutLocalFiles(path)).map((file) => file.path)).toEqual([SETTINGS]);
    const sha = await sandbox.service.commitAll(path, 'Work');
    expect(committedFiles(path, sha)).toEqual(['a.txt']);
  });

  it('leave a turn that changed nothing else without a commit, and are no uncommitted work that holds back an update', async () => {
    const { path, baseCommit } = await preparedTask();
    writeFiles(path, { [SETTINGS]: grant });
    expect(await sandbox.service.commitChanges(path, 'Nothing')).toBeUndefined();
    expect(git(path, 'rev-parse', 'HEAD')).toBe(baseCommit);
    expect(await hasUncommittedWork(createGitRunner({ hooksDir: sandbox.hooksDir }), { gitDir: gitDirOf(path), workTree: path })).toBe(false);
  });

  it('stay as the base has them when the base tracks them: the agent\'s change is not committed', async () => {
    const { path } = await preparedTask({ [SETTINGS]: '{}\n', 'keep.txt': 'keep\n' });
    writeFiles(path, { [SETTINGS]: grant, 'keep.txt': 'changed\n' });
    expect((await sandbox.service.leaveOutLocalFiles(path)).map((file) => file.path)).toEqual([SETTINGS]);
    const sha = await sandbox.service.commitChanges(path, 'Work');
    expect(committedFiles(path, sha as string)).toEqual(['keep.txt']);
    expect(git(path, 'show', `${sha}:${SETTINGS}`)).toBe('{}');
  });

  it('name nothing when there are none', async () => {
    const { path } = await preparedTask();
    expect(await sandbox.service.leaveOutLocalFiles(path)).toEqual([]);
  });

  it('go with the worktree when the task is retired, which git would otherwise refuse', async () => {
    const { path } = await preparedTask();
    writeFiles(path, { [SETTINGS]: grant, 'a.txt': 'a\n' });
    const { archiveRef } = await sandbox.service.retire('task-1');
    expect(existsSync(path)).toBe(false);
    expect(git(sandbox.repo, 'ls-tree', '-r', '--name-only', archiveRef as string).split('\n')).toEqual(['a.txt', 'change.txt', 'keep.txt', 'remove.txt']);
  });

  it('go with the worktree when the task is retired also when the agent deleted one the base tracks', async () => {
    const { path } = await preparedTask({ 'CLAUDE.local.md': 'base notes\n', 'keep.txt': 'keep\n' });
    rmSync(join(path, 'CLAUDE.local.md'));
    const { archiveRef } = await sandbox.service.retire('task-1');
    expect(existsSync(path)).toBe(false);
    // Nothing to snapshot: the branch's tip, which still has the base's notes, is what is kept.
    expect(git(sandbox.repo, 'show', `${archiveRef as string}:CLAUDE.local.md`)).toBe('base notes');
  });
});

function gitDirOf(worktree: string): string {
  return readFileSync(join(worktree, '.git'), 'utf8').trim().replace(/^gitdir: /, '');
}
