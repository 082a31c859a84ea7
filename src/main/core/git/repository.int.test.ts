import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { git, isolateGitConfig } from './git-test-fixture';
import { openRepository } from './repository';

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
});
