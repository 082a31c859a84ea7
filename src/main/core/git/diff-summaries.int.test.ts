// The summary of a task's change, read once per pair of commits: every kind of change in one git run, the card's totals
// and the attention list's names alike.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiffSummaries } from './diff-summaries';
import { createGitRunner, type GitRunner } from './git-runner';
import { commitFiles, createSandbox, git, isolateGitConfig, type Sandbox } from './git-test-fixture';

describe('diff summaries', () => {
  let restoreGit: () => void;
  let sandbox: Sandbox;
  let base: string;
  let head: string;

  beforeAll(() => {
    restoreGit = isolateGitConfig();
    sandbox = createSandbox({ files: { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'one\ntwo\nthree\n', 'logo.bin': '\0\x01' } });
    base = git(sandbox.repo, 'rev-parse', 'HEAD');
    git(sandbox.repo, 'rm', '-q', 'b.txt');
    git(sandbox.repo, 'mv', 'c.txt', 'moved.txt');
    head = commitFiles(sandbox.repo, { 'a.txt': 'a\nmore\n', 'new file.txt': 'x\n', 'logo.bin': '\0\x02\x03' });
  });
  afterAll(() => {
    sandbox.cleanup();
    restoreGit();
  });

  function counted(): { runner: GitRunner; runs: () => number } {
    const runner = createGitRunner({ hooksDir: join(sandbox.root, 'no-hooks') });
    let runs = 0;
    return { runner: { ...runner, run: (...args) => { runs += 1; return runner.run(...args); } }, runs: () => runs };
  }

  it('reads every kind of change and the totals from one git run, and reads them once per pair of commits', async () => {
    const { runner, runs } = counted();
    const summaries = createDiffSummaries(runner, async () => ({ gitDir: join(sandbox.repo, '.git'), workTree: sandbox.repo }));
    const [first, second] = await Promise.all([summaries.read(base, head), summaries.read(base, head)]);
    expect(first).toBe(second);
    expect(runs()).toBe(1);
    expect(first.entries).toEqual(expect.arrayContaining([
      { status: 'modified', path: 'a.txt' },
      { status: 'deleted', path: 'b.txt' },
      { status: 'renamed', oldPath: 'c.txt', path: 'moved.txt' },
      { status: 'added', path: 'new file.txt' },
      { status: 'modified', path: 'logo.bin' },
    ]));
    expect(first.entries).toHaveLength(5);
    expect(first.count).toEqual({ files: 5, additions: 2, deletions: 1 });
  });

  it('asks git again after a read that failed', async () => {
    const { runner, runs } = counted();
    const summaries = createDiffSummaries(runner, async () => ({ gitDir: join(sandbox.repo, '.git'), workTree: sandbox.repo }));
    await expect(summaries.read('0'.repeat(40), head)).rejects.toThrow();
    await expect(summaries.read('0'.repeat(40), head)).rejects.toThrow();
    expect(runs()).toBe(2);
  });
});
