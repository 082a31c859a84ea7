// The files' answer is git's answer, checked against git itself on real repositories, and git is asked for every
// shape the files cannot vouch for.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { git, isolateGitConfig } from './git-test-fixture';
import { plainConfig, repositoryLinesFromFiles } from './repository-files';

let restoreConfig: () => void;
beforeAll(() => { restoreConfig = isolateGitConfig(); });
afterAll(() => restoreConfig());

let root: string;
beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'desk-repo-files-')); });
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** What git answers for `path`, in the discovery's own words. */
const gitsAnswer = (path: string, head: boolean) =>
  `${git(path, 'rev-parse', '--path-format=absolute', '--show-toplevel', '--absolute-git-dir', '--git-common-dir', ...(head ? ['HEAD', '--symbolic-full-name', 'HEAD'] : []))}\n`;

function committedRepo(name = 'repo'): string {
  const repo = join(root, name);
  mkdirSync(repo);
  git(repo, 'init', '--quiet', '--initial-branch=main');
  writeFileSync(join(repo, 'a.txt'), 'a\n');
  git(repo, 'add', 'a.txt');
  git(repo, 'commit', '--quiet', '-m', 'first');
  return repo;
}

describe('repositoryLinesFromFiles', () => {
  it('answers as git does for a checkout on a branch, detached, with packed refs and through a symlink', () => {
    const repo = committedRepo();
    for (const head of [true, false]) expect(repositoryLinesFromFiles(repo, { head })).toBe(gitsAnswer(repo, head));

    git(repo, 'switch', '--quiet', '-c', 'feature/deep');
    git(repo, 'commit', '--quiet', '--allow-empty', '-m', 'second');
    git(repo, 'pack-refs', '--all');
    expect(repositoryLinesFromFiles(repo, { head: true })).toBe(gitsAnswer(repo, true));

    git(repo, 'switch', '--quiet', '--detach', 'main');
    expect(repositoryLinesFromFiles(repo, { head: true })).toBe(gitsAnswer(repo, true));

    const link = join(root, 'link');
    symlinkSync(repo, link);
    expect(repositoryLinesFromFiles(link, { head: true })).toBe(gitsAnswer(link, true));
  });

  it('leaves to git every shape its files cannot vouch for', () => {
    const repo = committedRepo();
    // A folder inside the checkout: git walks up; the files' answer does not.
    mkdirSync(join(repo, 'sub'));
    expect(repositoryLinesFromFiles(join(repo, 'sub'), { head: false })).toBeUndefined();
    // A linked worktree has a .git file.
    git(repo, 'worktree', 'add', '--quiet', join(root, 'linked'), '-b', 'linked');
    expect(repositoryLinesFromFiles(join(root, 'linked'), { head: true })).toBeUndefined();
    // A branch with no commit yet: git says HEAD is not a revision.
    const unborn = join(root, 'unborn');
    mkdirSync(unborn);
    git(unborn, 'init', '--quiet', '--initial-branch=main');
    expect(repositoryLinesFromFiles(unborn, { head: true })).toBeUndefined();
    expect(repositoryLinesFromFiles(unborn, { head: false })).toBe(gitsAnswer(unborn, false));
    // Settings that move the work tree, make the repository bare, or may do either.
    for (const setting of ['[core]\n\tworktree = /elsewhere\n', '[core]\n\tbare = true\n', '[core]\n\tbare\n', '[include]\n\tpath = more.config\n', '[extensions]\n\tworktreeConfig = true\n']) {
      const other = committedRepo(`repo-${Math.random().toString(36).slice(2)}`);
      appendFileSync(join(other, '.git', 'config'), setting);
      expect(repositoryLinesFromFiles(other, { head: true }), setting).toBeUndefined();
    }
    // Another user's repository: git's safe.directory check decides.
    expect(repositoryLinesFromFiles(repo, { head: true, uid: (process.geteuid?.() ?? 0) + 1 })).toBeUndefined();
    // Not a repository at all.
    expect(repositoryLinesFromFiles(root, { head: false })).toBeUndefined();
  });

  it('reads a config git writes as plain, comments and case aside', () => {
    expect(plainConfig('[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n')).toBe(true);
    expect(plainConfig('[core]\n\t# worktree = /x\n\tBare = False\n')).toBe(true);
    expect(plainConfig('[core]\n\tWorkTree = /x\n')).toBe(false);
    expect(plainConfig('[includeIf "gitdir:~/x/"]\n\tpath = y\n')).toBe(false);
  });
});
