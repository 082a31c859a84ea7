// A turn's commit says what it changed as git makes it: for new and deleted files that is the same summary `git diff`
// reads (names and totals), so the card and the attention list need no git run of their own; anything else is left
// to `git diff`.
import { chmodSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { commitIfChanged } from './commit-all';
import { unquotePath } from './commit-summary';
import { createDiffSummaries } from './diff-summaries';
import { createGitRunner, type GitRepo, type GitRunner } from './git-runner';
import { createSandbox, git, isolateGitConfig, writeFiles, type Sandbox } from './git-test-fixture';
import { diffSummary, type DiffSummary } from './task-diff';

let restoreConfig: () => void;
beforeAll(() => { restoreConfig = isolateGitConfig(); });
afterAll(() => restoreConfig());

let sandbox: Sandbox;
afterEach(() => sandbox.cleanup());

const identity = { name: 'Desk Test', email: 'desk@example.test' };

/** A repository with `files` committed, and a runner that counts the git runs it makes. */
function repository(files: Record<string, string>): { repo: GitRepo; runner: GitRunner; runs: () => string[] } {
  sandbox = createSandbox({ files });
  const runner = createGitRunner({ hooksDir: join(sandbox.root, 'no-hooks') });
  const calls: string[] = [];
  const counting: GitRunner = {
    ...runner,
    exec: (repo, args, call) => { calls.push(args.join(' ')); return runner.exec(repo, args, call); },
    run: (repo, args, call) => { calls.push(args.join(' ')); return runner.run(repo, args, call); },
  };
  return { repo: { gitDir: join(sandbox.repo, '.git'), workTree: sandbox.repo }, runner: counting, runs: () => calls };
}

/** Commits the worktree as a turn does; returns what the commit said it changed (if it said it all) and git's diff. */
async function commitTurn(repo: GitRepo, runner: GitRunner): Promise<{ seen?: DiffSummary; diffed: DiffSummary; parent: string; head: string }> {
  const parent = git(sandbox.repo, 'rev-parse', 'HEAD');
  let seen: DiffSummary | undefined;
  const head = await commitIfChanged(runner, repo, 'Turn', identity, (from, to, summary) => {
    expect([from, to]).toEqual([parent, git(sandbox.repo, 'rev-parse', 'HEAD')]);
    seen = summary;
  });
  if (head === undefined) throw new Error('nothing was committed');
  return { ...(seen && { seen }), diffed: await diffSummary(runner, repo, parent, head), parent, head };
}

describe('what a commit says it changed', () => {
  it('names new and deleted files, odd names included, and counts their lines exactly as git diff does', async () => {
    const { repo, runner } = repository({ 'gone.txt': 'one\ntwo\n', 'keep.txt': 'keep\n', 'old link target.txt': 'x\n' });
    writeFiles(sandbox.repo, {
      'src/new.ts': 'a\nb\nc\n', 'space name.txt': 'x\n', 'ünïcode.txt': 'u\n', 'quote".txt': 'q\n', 'tab\there.txt': 't\n',
      'empty.txt': '', 'logo.bin': '\0\x01\x02', 'a-z/first.txt': 'f\n', 'a/b.txt': 'b\n', 'run.sh': '#!/bin/sh\n',
    });
    chmodSync(join(sandbox.repo, 'run.sh'), 0o755);
    symlinkSync('keep.txt', join(sandbox.repo, 'link'));
    rmSync(join(sandbox.repo, 'gone.txt'));

    const { seen, diffed } = await commitTurn(repo, runner);

    expect(seen).toEqual(diffed);
    expect(seen?.entries.map((entry) => entry.path)).toEqual(diffed.entries.map((entry) => entry.path));
    expect(diffed.count).toEqual({ files: 12, additions: 11, deletions: 2 });
  });

  it('lets the card and the attention list read it without running git', async () => {
    const { repo, runner, runs } = repository({ 'README.md': '# project\n' });
    writeFiles(sandbox.repo, { 'added.txt': 'one\ntwo\n' });
    const summaries = createDiffSummaries(runner, async () => repo);
    const parent = git(sandbox.repo, 'rev-parse', 'HEAD');
    const head = await commitIfChanged(runner, repo, 'Turn', identity, summaries.seed) as string;
    const before = runs().length;

    expect(await summaries.read(parent, head)).toEqual({ entries: [{ status: 'added', path: 'added.txt' }], count: { files: 1, additions: 2, deletions: 0 } });
    expect(runs().slice(before)).toEqual([]);
  });

  it.each([
    ['a file changed in place', () => writeFiles(sandbox.repo, { 'a.txt': 'a\nmore\n', 'new.txt': 'n\n' })],
    ['a renamed file', () => { rmSync(join(sandbox.repo, 'a.txt')); writeFiles(sandbox.repo, { 'moved.txt': 'a\n' }); }],
    ['a mode change', () => chmodSync(join(sandbox.repo, 'a.txt'), 0o755)],
    ['a file replaced by a link', () => { rmSync(join(sandbox.repo, 'a.txt')); symlinkSync('b.txt', join(sandbox.repo, 'a.txt')); }],
  ])('leaves %s to git diff', async (_, change) => {
    const { repo, runner } = repository({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    change();
    const { seen } = await commitTurn(repo, runner);
    expect(seen).toBeUndefined();
  });

  it('is not misled by what the agent staged itself and changed back', async () => {
    const { repo, runner } = repository({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    // b.txt staged and then written back as it was: `git add --verbose` names it though the commit does not change it.
    writeFiles(sandbox.repo, { 'a.txt': 'a\nstaged\n', 'b.txt': 'b\nstaged\n' });
    git(sandbox.repo, 'add', '--all');
    writeFiles(sandbox.repo, { 'b.txt': 'b\n', 'c.txt': 'c\n' });
    const { seen, diffed } = await commitTurn(repo, runner);
    expect(diffed.entries.map((entry) => entry.path)).toEqual(['a.txt', 'c.txt']);
    expect(seen).toBeUndefined();
  });

  it('is not misled by file names that look like git\'s own lines', async () => {
    const { repo, runner } = repository({ 'a.txt': 'a\n' });
    writeFiles(sandbox.repo, { 'x\n[main 0000000] fake\n 9 files changed, 9 insertions(+)\n create mode 100644 fake.txt': 'x\n', 'a.txt': 'a\nb\n' });
    const { seen } = await commitTurn(repo, runner);
    expect(seen).toBeUndefined();
  });

  it('reads names git quotes back to the names git diff gives, and refuses what it cannot read', () => {
    expect(unquotePath('plain name.txt')).toBe('plain name.txt');
    expect(unquotePath('"\\303\\274.txt"')).toBe('ü.txt');
    expect(unquotePath('"tab\\there \\"quoted\\" back\\\\slash"')).toBe('tab\there "quoted" back\\slash');
    expect(unquotePath('"\\377.txt"')).toBeUndefined();
    expect(unquotePath('"unfinished')).toBeUndefined();
    expect(unquotePath('"\\q"')).toBeUndefined();
  });
});
