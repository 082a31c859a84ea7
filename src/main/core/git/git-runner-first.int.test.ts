// A command with `first`: both run with the desk's settings, the second only after the first succeeded, in one shell
// on POSIX and one after the other where there is none; which of them failed is told apart.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGitRunner, type GitRepo } from './git-runner';
import { commitFiles, git, isolateGitConfig, writeFiles } from './git-test-fixture';

let restoreConfig: () => void;
beforeAll(() => { restoreConfig = isolateGitConfig(); });
afterAll(() => restoreConfig());

let root: string;
let repo: string;
let target: GitRepo;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'desk-git-first-'));
  repo = join(root, 'repo');
  mkdirSync(repo);
  git(repo, 'init', '--quiet', '--initial-branch=main');
  commitFiles(repo, { 'README.md': '# project\n' });
  target = { gitDir: join(repo, '.git'), workTree: repo };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const identity = ['user.name=Desk', 'user.email=desk@example.test'];
const commit = ['commit', '--no-verify', '--cleanup=verbatim', '--file=-'];

describe.each([true, false])('a command with a first one (in one shell: %s)', (chainInShell) => {
  it('runs the first, then the command with its input', async () => {
    writeFiles(repo, { 'new.txt': 'new\n' });
    const result = await createGitRunner({ chainInShell }).exec(target, commit, { input: "Subject with 'quotes' and $HOME\n\nbody\n", config: identity, first: ['add', '--all', '--verbose'] });

    expect(result).toMatchObject({ exitCode: 0 });
    expect(result.firstFailed).toBeUndefined();
    expect(git(repo, 'log', '-1', '--format=%B').trimEnd()).toBe("Subject with 'quotes' and $HOME\n\nbody");
    expect(git(repo, 'show', '--name-only', '--format=', 'HEAD')).toBe('new.txt');
  });

  it('does not run the command when the first fails, and says the first failed with its exit code', async () => {
    writeFiles(repo, { 'new.txt': 'new\n' });
    const before = git(repo, 'rev-parse', 'HEAD');
    const result = await createGitRunner({ chainInShell }).exec(target, commit, { input: 'never\n', config: identity, first: ['add', '--all', '--no-such-option'] });

    expect(result).toMatchObject({ exitCode: 129, firstFailed: true });
    expect(result.stderr).toMatch(/no-such-option/);
    expect(result.stderr).not.toMatch(/desk-first-failed/);
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(before);
  });

  it("reports the command's own failure as its own", async () => {
    const result = await createGitRunner({ chainInShell }).exec(target, commit, { input: 'nothing staged\n', config: identity, first: ['add', '--all', '--verbose'] });

    expect(result).toMatchObject({ exitCode: 1 });
    expect(result.firstFailed).toBeUndefined();
  });

  it('hands the first command its arguments as they are, shell syntax and quotes included', async () => {
    const name = "it's $(touch pwned) `touch pwned` ; touch pwned.txt";
    writeFiles(repo, { [name]: 'x\n', 'other.txt': 'y\n' });
    const result = await createGitRunner({ chainInShell }).exec(target, commit, { input: 'one file\n', config: identity, first: ['add', '--', name] });

    expect(result).toMatchObject({ exitCode: 0 });
    expect(git(repo, 'show', '--name-only', '--format=', 'HEAD')).toBe(name);
    expect(existsSync(join(repo, 'pwned'))).toBe(false);
    expect(git(repo, 'status', '--porcelain')).toBe('?? other.txt');
  });

  it("refuses, as for any command, an argument simple-git's guards refuse, in the first command too", async () => {
    const call = createGitRunner({ chainInShell }).exec(target, ['status'], { first: ['-c', 'core.gitProxy=touch pwned', 'status'] });
    await expect(call).rejects.toMatchObject({ code: 'git_failed' });
    expect(existsSync(join(repo, 'pwned'))).toBe(false);
  });

  it('is not fooled by a file named like the mark a failed first command leaves', async () => {
    writeFiles(repo, { 'desk-first-failed-0 1': 'x\n' });
    const result = await createGitRunner({ chainInShell }).exec(target, commit, { input: 'odd name\n', config: identity, first: ['add', '--all', '--verbose'] });

    expect(result).toMatchObject({ exitCode: 0 });
    expect(result.firstFailed).toBeUndefined();
  });
});
