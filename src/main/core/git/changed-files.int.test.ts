// What a task's commits changed, and a file's exact bytes at a commit, read from a real repository.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChangedFiles } from './changed-files';
import { commitFiles, createSandbox, git, isolateGitConfig, type Sandbox } from './git-test-fixture';

let restoreGit: () => void;
let sandbox: Sandbox;
beforeAll(() => { restoreGit = isolateGitConfig(); });
afterAll(() => restoreGit());
afterEach(() => sandbox.cleanup());

describe('changed files', () => {
  it('lists what a range and a single commit changed, leaving out deletions and counting a rename as the new name', async () => {
    sandbox = createSandbox({ files: { 'keep.txt': 'k\n', 'old.txt': 'o\n', 'gone.txt': 'g\n' } });
    const base = git(sandbox.repo, 'rev-parse', 'HEAD');
    const first = commitFiles(sandbox.repo, { 'a b.txt': 'spaces\n', 'dir/ü.txt': 'umlaut\n' });
    git(sandbox.repo, 'mv', 'old.txt', 'new.txt');
    rmSync(join(sandbox.repo, 'gone.txt'));
    const second = commitFiles(sandbox.repo, { 'keep.txt': 'changed\n' });
    const files = createChangedFiles(sandbox.repo);
    expect(await files.between(base, second)).toEqual(['a b.txt', 'dir/ü.txt', 'keep.txt', 'new.txt']);
    expect(await files.ofCommit(first)).toEqual(['a b.txt', 'dir/ü.txt']);
    expect(await files.ofCommit(second)).toEqual(['keep.txt', 'new.txt']);
    expect(await files.between(`${second}^`, second)).toEqual(['keep.txt', 'new.txt']);
  });

  it('reads a file\'s bytes at a commit exactly, binary included, and nothing for a path the commit lacks', async () => {
    sandbox = createSandbox();
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    writeFileSync(join(sandbox.repo, 'data.bin'), bytes);
    git(sandbox.repo, 'add', 'data.bin');
    git(sandbox.repo, 'commit', '--quiet', '-m', 'binary');
    const head = git(sandbox.repo, 'rev-parse', 'HEAD');
    const files = createChangedFiles(sandbox.repo);
    expect(await files.read(head, 'data.bin')).toEqual(bytes);
    expect(await files.read(head, 'missing.bin')).toBeUndefined();
  });
});
