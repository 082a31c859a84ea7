import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { git, isolateGitConfig } from './git-test-fixture';
import { openRepository } from './repository';
import { startRepositoryDiscovery } from './repository-discovery';
import { openRepo } from '../repos/repo-set';

let restoreConfig: () => void;
beforeAll(() => { restoreConfig = isolateGitConfig(); });
afterAll(() => restoreConfig());

let root: string;
beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'desk-repo-')); });
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('openRepository', () => {
  it('refuses a directory that is not inside a git work tree', async () => {
    const error = await openRepository(root).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'not_a_git_repository', details: { path: root } });
  });

  it('refuses a path that does not exist', async () => {
    await expect(openRepository(join(root, 'missing'))).rejects.toMatchObject({ code: 'not_a_git_repository' });
  });

  it('refuses the inside of a .git directory, which has no work tree', async () => {
    git(root, 'init', '--quiet');
    await expect(openRepository(join(root, '.git'))).rejects.toMatchObject({ code: 'not_a_git_repository' });
  });

  it('answers the top level of the repository for a subdirectory, with symlinks resolved', async () => {
    const repo = join(root, 'repo');
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
    git(repo, 'init', '--quiet');
    symlinkSync(repo, join(root, 'link'));
    await expect(openRepository(join(root, 'link', 'src', 'deep'))).resolves.toMatchObject({ root: realpathSync(repo) });
  });

  it('notes the branch HEAD is on and its commit, as found when opening', async () => {
    git(root, 'init', '--quiet', '--initial-branch=trunk');
    git(root, 'commit', '--quiet', '--allow-empty', '-m', 'start');
    const commit = git(root, 'rev-parse', 'HEAD');
    await expect(openRepository(root)).resolves.toMatchObject({ root: realpathSync(root), headAtOpen: { commit, branch: 'trunk' } });
  });

  it('opens a repository without commits yet, noting no HEAD', async () => {
    git(root, 'init', '--quiet');
    const repository = await openRepository(root);
    expect(repository).toMatchObject({ root: realpathSync(root), gitDir: realpathSync(join(root, '.git')) });
    expect(repository.headAtOpen).toBeUndefined();
  });

  it('notes a detached HEAD as a commit on no branch', async () => {
    git(root, 'init', '--quiet');
    git(root, 'commit', '--quiet', '--allow-empty', '-m', 'start');
    git(root, 'checkout', '--quiet', '--detach');
    const repository = await openRepository(root);
    expect(repository.headAtOpen).toEqual({ commit: git(root, 'rev-parse', 'HEAD') });
  });
});

describe('openRepository with a discovery the host started early', () => {
  const makeRepo = (path: string, branch: string) => {
    git(root, 'init', '--quiet', `--initial-branch=${branch}`, path);
    git(path, 'commit', '--quiet', '--allow-empty', '-m', 'start');
    return path;
  };

  it('takes git\'s answer from the discovery started for the same path', async () => {
    const repo = makeRepo(join(root, 'repo'), 'trunk');
    const early = startRepositoryDiscovery(repo);
    await early.withHead;
    // Moved after git answered: the repository as found then is what the early answer says.
    git(repo, 'checkout', '--quiet', '-b', 'later');
    await expect(openRepository(repo, early)).resolves.toMatchObject({ root: realpathSync(repo), headAtOpen: { branch: 'trunk' } });
  });

  it('asks git again when the discovery was started for another path', async () => {
    const first = makeRepo(join(root, 'first'), 'main');
    const second = makeRepo(join(root, 'second'), 'main');
    await expect(openRepository(second, startRepositoryDiscovery(first))).resolves.toMatchObject({ root: realpathSync(second) });
  });

  it('still refuses a folder that is not a git work tree', async () => {
    const plain = join(root, 'plain');
    mkdirSync(plain);
    await expect(openRepository(plain, startRepositoryDiscovery(plain))).rejects.toMatchObject({ code: 'not_a_git_repository', details: { path: plain } });
  });

  it('is not steered to another repository by GIT_DIR or GIT_WORK_TREE in the desk\'s environment', async () => {
    const repo = makeRepo(join(root, 'repo'), 'main');
    const other = makeRepo(join(root, 'other'), 'other');
    const saved = { dir: process.env.GIT_DIR, tree: process.env.GIT_WORK_TREE };
    process.env.GIT_DIR = join(other, '.git');
    process.env.GIT_WORK_TREE = other;
    try {
      const early = startRepositoryDiscovery(repo);
      await expect(openRepository(repo, early)).resolves.toMatchObject({ root: realpathSync(repo), headAtOpen: { branch: 'main' } });
    } finally {
      for (const [key, value] of [['GIT_DIR', saved.dir], ['GIT_WORK_TREE', saved.tree]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });
});

describe('openRepo (start-up checks of the base branch)', () => {
  const opener = () => ({ dataDir: join(root, 'data'), deskId: 'desk-test', now: () => new Date() });

  it('takes the branch HEAD is on as the base', async () => {
    const repo = join(root, 'repo');
    git(root, 'init', '--quiet', '--initial-branch=trunk', repo);
    git(repo, 'commit', '--quiet', '--allow-empty', '-m', 'start');
    await expect(openRepo(opener(), { path: repo })).resolves.toMatchObject({ baseBranch: 'trunk' });
  });

  it('refuses a repository without commits as empty', async () => {
    const repo = join(root, 'repo');
    git(root, 'init', '--quiet', '--initial-branch=main', repo);
    await expect(openRepo(opener(), { path: repo })).rejects.toMatchObject({ code: 'empty_repository', details: { branch: 'main' } });
  });

  it('refuses a detached HEAD unless a base branch is named', async () => {
    const repo = join(root, 'repo');
    git(root, 'init', '--quiet', '--initial-branch=main', repo);
    git(repo, 'commit', '--quiet', '--allow-empty', '-m', 'start');
    git(repo, 'checkout', '--quiet', '--detach');
    await expect(openRepo(opener(), { path: repo })).rejects.toThrow(/detached/);
    await expect(openRepo(opener(), { path: repo, baseBranch: 'main' })).resolves.toMatchObject({ baseBranch: 'main' });
  });

  it('checks a named base branch other than HEAD\'s', async () => {
    const repo = join(root, 'repo');
    git(root, 'init', '--quiet', '--initial-branch=main', repo);
    git(repo, 'commit', '--quiet', '--allow-empty', '-m', 'start');
    await expect(openRepo(opener(), { path: repo, baseBranch: 'release' })).rejects.toMatchObject({ code: 'unknown_branch', details: { branch: 'release' } });
  });
});
