// What an agent can write in its worktree (or, with commands, in the person's .git/config) must not
// steer the desk's own git: no commit into another repository, nothing executed along the way.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, createSandbox, git, isolateGitConfig, writeFiles, type Sandbox } from './git-test-fixture';

let restoreConfig: () => void;
beforeAll(() => { restoreConfig = isolateGitConfig(); });
afterAll(() => restoreConfig());

let sandbox: Sandbox;
afterEach(() => sandbox.cleanup());

/** Everything a repository could make git run writes a file here; the directory must stay empty. */
function markers(): { dir: string; command(name: string): string; script(name: string): string } {
  const dir = join(sandbox.root, 'markers');
  mkdirSync(dir, { recursive: true });
  return {
    dir,
    command: (name) => `touch '${join(dir, name)}'; cat`,
    script(name) {
      const file = join(sandbox.root, `${name}.sh`);
      writeFileSync(file, `#!/bin/sh\ntouch '${join(dir, name)}'\n`);
      chmodSync(file, 0o755);
      return file;
    },
  };
}

/** Every ref and the HEAD log of `repo`, to show nothing was written there. */
function stateOf(repo: string): string {
  return [git(repo, 'for-each-ref', '--format=%(refname) %(objectname)'), git(repo, 'log', '--all', '--format=%H'), git(repo, 'status', '--porcelain')].join('\n');
}

describe('a worktree whose .git was changed', () => {
  it('is refused at commit time when its .git file points at another repository, which gets no commit', async () => {
    sandbox = createSandbox();
    const other = join(sandbox.root, 'other');
    mkdirSync(other);
    git(other, 'init', '--quiet', '--initial-branch=main');
    commitFiles(other, { 'theirs.txt': 'theirs\n' });
    const otherBefore = stateOf(other);
    const { path, branch } = await sandbox.service.prepareWorktree({ taskId: 'steer', baseBranch: 'main', dependencyBranches: [] });
    const tip = git(sandbox.repo, 'rev-parse', branch);
    writeFiles(path, { 'work.txt': 'work\n', '.git': `gitdir: ${join(other, '.git')}\n` });

    const error = await sandbox.service.commitAll(path, 'steered').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'worktree_tampered', details: { file: join(path, '.git') } });
    expect((error as Error).message).toBe(`${join(path, '.git')} was changed (it points at ${join(other, '.git')} instead of ${join(sandbox.repo, '.git', 'worktrees', 'steer-' + branch.slice(-8))}); nothing was committed`);
    expect(stateOf(other)).toBe(otherBefore);
    expect(git(sandbox.repo, 'rev-parse', branch)).toBe(tip);
  });

  it('is refused when .git became a repository of its own, and none of its hooks or settings run', async () => {
    sandbox = createSandbox();
    const mark = markers();
    const { path, branch } = await sandbox.service.prepareWorktree({ taskId: 'own repo', baseBranch: 'main', dependencyBranches: [] });
    const tip = git(sandbox.repo, 'rev-parse', branch);
    rmSync(join(path, '.git'));
    git(path, 'init', '--quiet');
    writeFileSync(join(path, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\ntouch '${join(mark.dir, 'pre-commit')}'\n`);
    chmodSync(join(path, '.git', 'hooks', 'pre-commit'), 0o755);
    git(path, 'config', 'core.fsmonitor', mark.script('fsmonitor'));
    writeFiles(path, { 'work.txt': 'work\n' });

    await expect(sandbox.service.commitAll(path, 'in my own repo')).rejects.toThrow(`${join(path, '.git')} was changed (it is now a directory, a repository of its own); nothing was committed`);
    expect(readdirSync(mark.dir)).toEqual([]);
    expect(git(path, 'rev-list', '--all')).toBe('');
    expect(git(sandbox.repo, 'rev-parse', branch)).toBe(tip);
  });

  it('is refused, without the desk waiting on it, when .git was replaced by a FIFO', async () => {
    sandbox = createSandbox();
    const { path, branch } = await sandbox.service.prepareWorktree({ taskId: 'fifo', baseBranch: 'main', dependencyBranches: [] });
    const tip = git(sandbox.repo, 'rev-parse', branch);
    rmSync(join(path, '.git'));
    execFileSync('mkfifo', [join(path, '.git')]);
    writeFiles(path, { 'work.txt': 'work\n' });

    await expect(sandbox.service.commitAll(path, 'through a fifo')).rejects.toThrow(`${join(path, '.git')} was changed (it is no longer a plain file); nothing was committed`);
    expect(git(sandbox.repo, 'rev-parse', branch)).toBe(tip);
  });

  it('is refused when .git was replaced by a link to the link file git wrote', async () => {
    sandbox = createSandbox();
    const { path, branch } = await sandbox.service.prepareWorktree({ taskId: 'linked', baseBranch: 'main', dependencyBranches: [] });
    const tip = git(sandbox.repo, 'rev-parse', branch);
    const copy = join(sandbox.root, 'dot-git-copy');
    writeFileSync(copy, readFileSync(join(path, '.git')));
    rmSync(join(path, '.git'));
    symlinkSync(copy, join(path, '.git'));
    writeFiles(path, { 'work.txt': 'work\n' });

    await expect(sandbox.service.commitAll(path, 'through a link')).rejects.toThrow(`${join(path, '.git')} was changed (it is no longer a plain file); nothing was committed`);
    expect(git(sandbox.repo, 'rev-parse', branch)).toBe(tip);
  });

  it('is refused when the worktree\'s HEAD was pointed at another branch', async () => {
    sandbox = createSandbox();
    const mainBefore = git(sandbox.repo, 'rev-parse', 'main');
    const { path } = await sandbox.service.prepareWorktree({ taskId: 'onto main', baseBranch: 'main', dependencyBranches: [] });
    const gitDir = git(path, 'rev-parse', '--absolute-git-dir');
    writeFileSync(join(gitDir, 'HEAD'), 'ref: refs/heads/main\n');
    await expect(sandbox.service.commitAll(path, 'sneaky')).rejects.toThrow(`${join(gitDir, 'HEAD')} was changed`);
    expect(git(sandbox.repo, 'rev-parse', 'main')).toBe(mainBefore);
  });

  it('is refused when the worktree\'s git dir names another repository as its common dir', async () => {
    sandbox = createSandbox();
    const other = join(sandbox.root, 'other');
    mkdirSync(other);
    git(other, 'init', '--quiet', '--initial-branch=main');
    commitFiles(other, { 'theirs.txt': 'theirs\n' });
    const otherBefore = stateOf(other);
    const { path } = await sandbox.service.prepareWorktree({ taskId: 'common', baseBranch: 'main', dependencyBranches: [] });
    const gitDir = git(path, 'rev-parse', '--absolute-git-dir');
    writeFileSync(join(gitDir, 'commondir'), `${join(other, '.git')}\n`);
    await expect(sandbox.service.commitAll(path, 'elsewhere')).rejects.toThrow(`${join(gitDir, 'commondir')} was changed`);
    expect(stateOf(other)).toBe(otherBefore);
  });
});

describe('programs the repository names', () => {
  it('never run for the desk\'s add, commit, diff, merges and approval, and the commits still hold the files as written', async () => {
    sandbox = createSandbox({ files: { 'shared.txt': 'one\ntwo\nthree\nfour\nfive\n' } });
    const mark = markers();
    // What an agent with commands could write into the person's .git/config (worktrees share it).
    const hooks = join(sandbox.root, 'evil-hooks');
    mkdirSync(hooks);
    for (const hook of ['pre-commit', 'post-commit', 'commit-msg', 'pre-merge-commit', 'post-merge', 'post-checkout']) {
      writeFileSync(join(hooks, hook), `#!/bin/sh\ntouch '${join(mark.dir, hook)}'\n`);
      chmodSync(join(hooks, hook), 0o755);
    }
    const config: [string, string][] = [
      ['filter.evil.clean', mark.command('clean')], ['filter.evil.smudge', mark.command('smudge')],
      ['filter.evil.required', 'true'], ['filter.proc.process', mark.script('process')],
      ['core.fsmonitor', mark.script('fsmonitor')], ['core.hooksPath', hooks],
      ['diff.evil.textconv', mark.command('textconv')], ['diff.evil.command', mark.script('external-diff')],
      ['diff.external', mark.script('diff-external')],
      ['merge.evil.driver', `touch '${join(mark.dir, 'merge-driver')}'; false`], ['merge.evil.recursive', 'evil'],
    ];
    for (const [key, value] of config) git(sandbox.repo, 'config', key, value);

    // Two dependencies change different lines of shared.txt: merging the second runs a content merge.
    const prepare = (taskId: string, dependencyBranches: string[] = []) => sandbox.service.prepareWorktree({ taskId, baseBranch: 'main', dependencyBranches });
    const attributes = { '.gitattributes': '* filter=evil diff=evil merge=evil\nproc.txt filter=proc\n' };
    const first = await prepare('first');
    writeFiles(first.path, { ...attributes, 'shared.txt': 'ONE\ntwo\nthree\nfour\nfive\n', 'proc.txt': 'p\n' });
    const firstCommit = await sandbox.service.commitAll(first.path, 'first');
    const second = await prepare('second');
    writeFiles(second.path, { ...attributes, 'shared.txt': 'one\ntwo\nthree\nfour\nFIVE\n' });
    await sandbox.service.commitAll(second.path, 'second');
    const third = await prepare('third', [first.branch, second.branch]);
    writeFiles(third.path, { 'third.txt': 'three\n' });
    const thirdCommit = await sandbox.service.commitAll(third.path, 'third');
    const diff = await sandbox.service.diff(third.baseCommit, thirdCommit);
    await sandbox.service.mergeIntoBase({ taskId: 'third', baseBranch: 'main', message: 'approve third' });

    expect(readdirSync(mark.dir)).toEqual([]);
    expect(git(sandbox.repo, 'show', `${firstCommit}:proc.txt`)).toBe('p');
    expect(git(sandbox.repo, 'show', `${thirdCommit}:shared.txt`)).toBe('ONE\ntwo\nthree\nfour\nFIVE');
    expect(git(sandbox.repo, 'show', `${thirdCommit}:third.txt`)).toBe('three');
    expect(diff.files.map((file) => file.path).sort()).toEqual(['.gitattributes', 'proc.txt', 'shared.txt', 'third.txt']);
    expect(existsSync(join(sandbox.repo, 'third.txt'))).toBe(true);
  });
});
