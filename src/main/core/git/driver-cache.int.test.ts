// The runner keeps its look-up of configured drivers while the repository's config files stay as they
// were; whatever changes them (or a file they include) must still have its drivers turned off.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configStamp, createGitRunner, type GitRepo } from './git-runner';
import { commitFiles, git, isolateGitConfig, writeFiles } from './git-test-fixture';

let restoreConfig: () => void;
beforeAll(() => { restoreConfig = isolateGitConfig(); });
afterAll(() => restoreConfig());

let root: string;
let repo: string;
let target: GitRepo;
let marker: string;
let restorePath: () => void;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'desk-driver-cache-'));
  repo = join(root, 'repo');
  mkdirSync(repo);
  git(repo, 'init', '--quiet', '--initial-branch=main');
  commitFiles(repo, { '.gitattributes': '*.txt filter=evil\n', 'README.md': '# project\n' });
  target = { gitDir: join(repo, '.git'), workTree: repo };
  marker = join(root, 'filter-ran');
  restorePath = countGitCalls();
});
afterEach(() => {
  restorePath();
  rmSync(root, { recursive: true, force: true });
});

/** Puts a git in front of PATH that logs each call's arguments, so a test can count driver look-ups. */
function countGitCalls(): () => void {
  const bin = join(root, 'bin');
  mkdirSync(bin);
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${join(root, 'git-calls')}'\nexec '${realGit}' "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  const saved = process.env.PATH;
  process.env.PATH = `${bin}:${saved ?? ''}`;
  return () => { process.env.PATH = saved; };
}

function lookUps(): number {
  const calls = existsSync(join(root, 'git-calls')) ? readFileSync(join(root, 'git-calls'), 'utf8') : '';
  return calls.split('\n').filter((line) => line.startsWith('config --null --name-only --get-regexp')).length;
}

const evilFilter = () => `touch '${marker}'; cat`;
// Config files written by this test are seconds old at most; a clock a minute ahead lets the runner trust them.
const aMinuteOn = () => Date.now() + 60_000;

describe('the driver look-up kept between commands', () => {
  it('is made once while the config stays the same', async () => {
    const runner = createGitRunner({ now: aMinuteOn });
    writeFiles(repo, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    await runner.run(target, ['add', 'a.txt']);
    await runner.run(target, ['add', 'b.txt']);
    expect(lookUps()).toBe(1);
  });

  it('turns off a filter driver configured after the look-up was kept', async () => {
    const runner = createGitRunner({ now: aMinuteOn });
    writeFiles(repo, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    await runner.run(target, ['add', 'a.txt']);
    git(repo, 'config', 'filter.evil.clean', evilFilter());
    git(repo, 'config', 'filter.evil.required', 'true');
    await runner.run(target, ['add', 'b.txt']);
    expect(existsSync(marker)).toBe(false);
    expect(lookUps()).toBe(2);
    expect(git(repo, 'show', ':b.txt')).toBe('b');
  });

  it('turns off a filter driver added to an included file, whose change no stamped file shows', async () => {
    const runner = createGitRunner({ now: aMinuteOn });
    const included = join(root, 'included.gitconfig');
    writeFileSync(included, '');
    git(repo, 'config', 'include.path', included);
    writeFiles(repo, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    await runner.run(target, ['add', 'a.txt']);
    writeFileSync(included, `[filter "evil"]\n\tclean = ${evilFilter()}\n\trequired = true\n`);
    await runner.run(target, ['add', 'b.txt']);
    expect(existsSync(marker)).toBe(false);
    expect(lookUps()).toBe(2);
  });

  it('is not kept while a config file is too new for its timestamp to show the next change', async () => {
    const runner = createGitRunner();
    writeFiles(repo, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    await runner.run(target, ['add', 'a.txt']);
    await runner.run(target, ['add', 'b.txt']);
    expect(lookUps()).toBe(2);
    expect(configStamp(target, '/dev/null')).toBeUndefined();
  });

  it("is kept at once when the too-new file is the desk's empty global config, which holds no setting", async () => {
    // A clock at which the repository's config is old enough to trust, and the global config, written later, is not.
    const repoConfigChanged = statSync(join(repo, '.git', 'config')).ctimeMs;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const emptyGlobal = join(root, 'empty-gitconfig');
    writeFileSync(emptyGlobal, '');
    const now = () => repoConfigChanged + 2_100;
    expect(now() - statSync(emptyGlobal).ctimeMs).toBeLessThan(2_000);
    const runner = createGitRunner({ globalConfig: emptyGlobal, now });
    writeFiles(repo, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    await runner.run(target, ['add', 'a.txt']);
    await runner.run(target, ['add', 'b.txt']);
    expect(lookUps()).toBe(1);
    // Given a setting, it is a file like any other again: too new to trust.
    writeFileSync(emptyGlobal, '[core]\n\tquotePath = false\n');
    expect(configStamp(target, emptyGlobal, now())).toBeUndefined();
  });

  it('stamps the config files by content changes even when their size stays the same', async () => {
    git(repo, 'config', 'desk.test', 'one');
    const before = configStamp(target, '/dev/null', aMinuteOn());
    git(repo, 'config', 'desk.test', 'two');
    const after = configStamp(target, '/dev/null', aMinuteOn());
    expect(before).toBeDefined();
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
  });

  it('is shared by the worktrees of one repository, so a new task worktree needs no look-up of its own', async () => {
    const runner = createGitRunner({ now: aMinuteOn });
    const worktrees = ['one', 'two'].map((name) => {
      const path = join(root, name);
      git(repo, 'worktree', 'add', '--quiet', '-b', name, path);
      writeFiles(path, { 'a.txt': 'a\n' });
      return { gitDir: join(repo, '.git', 'worktrees', name), workTree: path, commonDir: join(repo, '.git') };
    });
    for (const worktree of worktrees) await runner.run(worktree, ['add', 'a.txt']);
    expect(lookUps()).toBe(1);
  });

  it('is shared by the person\'s checkout and the task worktrees, so making a worktree and committing in it need one look-up', async () => {
    const runner = createGitRunner({ now: aMinuteOn });
    const path = join(root, 'task');
    git(repo, 'worktree', 'add', '--quiet', '-b', 'task', path);
    writeFiles(repo, { 'a.txt': 'a\n' });
    writeFiles(path, { 'a.txt': 'a\n' });
    await runner.run(target, ['add', 'a.txt']);
    await runner.run({ gitDir: join(repo, '.git', 'worktrees', 'task'), workTree: path, commonDir: join(repo, '.git') }, ['add', 'a.txt']);
    await runner.run(target, ['add', 'a.txt']);
    expect(lookUps()).toBe(1);
  });

  it('is made once for commands that start together', async () => {
    const runner = createGitRunner({ now: aMinuteOn });
    writeFiles(repo, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    await Promise.all([runner.configuredKeys(target), runner.configuredKeys(target), runner.configuredKeys(target)]);
    expect(lookUps()).toBe(1);
  });

  it('looks up again for every command when the config includes a file, commands that start together too', async () => {
    const runner = createGitRunner({ now: aMinuteOn });
    const included = join(root, 'included.gitconfig');
    writeFileSync(included, '');
    git(repo, 'config', 'include.path', included);
    await Promise.all([runner.configuredKeys(target), runner.configuredKeys(target)]);
    expect(lookUps()).toBe(2);
  });

  it('turns off a filter driver the person\'s checkout configures for itself, after a task worktree\'s look-up was kept', async () => {
    const runner = createGitRunner({ now: aMinuteOn });
    git(repo, 'config', 'extensions.worktreeConfig', 'true');
    const path = join(root, 'task');
    git(repo, 'worktree', 'add', '--quiet', '-b', 'task', path);
    writeFiles(path, { 'a.txt': 'a\n' });
    writeFiles(repo, { 'b.txt': 'b\n' });
    await runner.run({ gitDir: join(repo, '.git', 'worktrees', 'task'), workTree: path, commonDir: join(repo, '.git') }, ['add', 'a.txt']);
    git(repo, 'config', '--worktree', 'filter.evil.clean', evilFilter());
    git(repo, 'config', '--worktree', 'filter.evil.required', 'true');
    await runner.run(target, ['add', 'b.txt']);
    expect(existsSync(marker)).toBe(false);
    expect(git(repo, 'show', ':b.txt')).toBe('b');
  });

  it('turns off a filter driver one worktree configures for itself, after another worktree\'s look-up was kept', async () => {
    const runner = createGitRunner({ now: aMinuteOn });
    git(repo, 'config', 'extensions.worktreeConfig', 'true');
    const worktrees = ['clean', 'dirty'].map((name) => {
      const path = join(root, name);
      git(repo, 'worktree', 'add', '--quiet', '-b', name, path);
      writeFiles(path, { 'a.txt': 'a\n' });
      return { gitDir: join(repo, '.git', 'worktrees', name), workTree: path, commonDir: join(repo, '.git') };
    });
    const [clean, dirty] = worktrees as [GitRepo, GitRepo];
    await runner.run(clean, ['add', 'a.txt']);
    git(dirty.workTree as string, 'config', '--worktree', 'filter.evil.clean', evilFilter());
    git(dirty.workTree as string, 'config', '--worktree', 'filter.evil.required', 'true');
    await runner.run(dirty, ['add', 'a.txt']);
    expect(existsSync(marker)).toBe(false);
    expect(lookUps()).toBe(2);
    expect(git(dirty.workTree as string, 'show', ':a.txt')).toBe('a');
  });
});
