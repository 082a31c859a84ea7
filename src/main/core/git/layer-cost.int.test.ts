import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRunner } from './git-runner';
import { git, isolateGitConfig } from './git-test-fixture';
import { createKnownObjects } from './known-objects';
import { createSnapshotIgnoreRules } from './snapshot-ignore-rules';
import { commitLayer } from './layer-commit';
import { mountLayer, plainTree, type MountedLayer } from './layer-test-fixture';
import { buildLayerTree, type LayerTreeRequest } from './layer-tree';

const FILES = 20_000;
const DIRS = 100;

let restoreConfig: () => void;
let root: string;
let repo: string;
let base: string;
let layer: MountedLayer;
let request: LayerTreeRequest;
let gitLog: string;
let savedPath: string | undefined;

beforeAll(async () => {
  restoreConfig = isolateGitConfig();
  root = mkdtempSync(join(tmpdir(), 'desk-layer-cost-'));
  repo = join(root, 'repo');
  mkdirSync(repo);
  git(repo, 'init', '--quiet', '--initial-branch=main');
  // 20,000 files in 100 dirs of two levels, as a repository of that size is laid out.
  for (let n = 0; n < FILES; n++) {
    const dir = join(repo, `pkg${n % DIRS}`, `sub${n % 7}`);
    if (n < DIRS * 7) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `file${n}.ts`), `export const value${n} = ${n};\n`);
  }
  writeFileSync(join(repo, '.gitignore'), 'node_modules/\n');
  git(repo, 'add', '--all');
  git(repo, 'commit', '--quiet', '-m', 'base');
  // Packed, as a repository of that size is: git reads the packs, the desk only loose objects.
  git(repo, 'repack', '-a', '-d', '--quiet');
  git(repo, 'prune-packed');
  base = git(repo, 'rev-parse', 'HEAD');
  git(repo, 'update-ref', 'refs/heads/desk/cost', base);
  const lower = join(root, 'snapshot');
  git(repo, 'worktree', 'add', '--quiet', '--detach', lower, base);
  layer = await mountLayer(root, lower);
  request = {
    git: createGitRunner(),
    repo: { gitDir: join(repo, '.git', 'worktrees', 'snapshot'), commonDir: join(repo, '.git') },
    view: { upperDir: layer.upper, mergedDir: layer.merged },
    baseTree: git(repo, 'rev-parse', 'HEAD^{tree}'),
    scratchDir: root,
    // One of each for the whole file, as the desk keeps one per repository.
    known: createKnownObjects(),
    snapshot: { lower, commit: base, rules: createSnapshotIgnoreRules(createGitRunner(), join(repo, '.git')) },
  };
  // Every git process the desk starts goes through this stand-in on PATH, which writes down its command.
  const shims = join(root, 'shims');
  mkdirSync(shims);
  gitLog = join(root, 'git.log');
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(join(shims, 'git'), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${gitLog}'\nexec '${realGit}' "$@"\n`);
  chmodSync(join(shims, 'git'), 0o755);
  savedPath = process.env.PATH;
  process.env.PATH = `${shims}:${savedPath ?? ''}`;
}, 120_000);

afterAll(async () => {
  process.env.PATH = savedPath;
  await layer?.close();
  rmSync(root, { recursive: true, force: true });
  restoreConfig();
}, 120_000);

/** The git commands started while `work` ran, by their first word. */
async function gitCommandsDuring(work: () => Promise<unknown>): Promise<string[]> {
  writeFileSync(gitLog, '');
  await work();
  return readFileSync(gitLog, 'utf8').split('\n').filter(Boolean);
}

describe(`a one-file change in a repository of ${FILES.toLocaleString('en')} files`, () => {
  it('reads the base trees of its ancestors only, through one git process', async () => {
    writeFileSync(join(layer.merged, 'pkg42', 'sub0', 'file42.ts'), 'export const value42 = "changed";\n');
    let built: Awaited<ReturnType<typeof buildLayerTree>> | undefined;
    const commands = await gitCommandsDuring(async () => { built = await buildLayerTree(request); });
    expect(built?.baseTreesRead.sort()).toEqual(['', 'pkg42', 'pkg42/sub0']);
    // cat-file for the three trees; the small file is written by the desk; no check-ignore (the file is tracked).
    expect(commands).toEqual(['cat-file']);
    // The comparison copies and stages all 20,000 files: slow on a busy machine, hence the time allowed.
    expect(built?.tree).toBe(plainTree(repo, base, layer.merged, root));
  }, 180_000);

  it('commits it with a handful of git processes, whatever the repository holds', async () => {
    writeFileSync(join(layer.merged, 'pkg7', 'new-file.ts'), 'export const fresh = 1;\n');
    let sha: string | undefined;
    const commands = await gitCommandsDuring(async () => {
      sha = await commitLayer({ ...request, ref: 'refs/heads/desk/cost', message: 'one file', identity: { name: 'T', email: 't@example.test' } });
    });
    // cat-file (the head commit and pkg7's tree: the others were read above), check-ignore (the new file: the snapshot's,
    // kept for later), commit-tree, update-ref; and the runner's look-up of the repository's config, when its files are
    // too new for the runner to keep what it read.
    expect(commands.filter((command) => command !== 'config').sort()).toEqual(['cat-file', 'check-ignore', 'commit-tree', 'update-ref']);
    expect(commands.length).toBeLessThanOrEqual(6);
    expect(git(repo, 'diff-tree', '-r', '--name-only', base, sha as string).split('\n').sort()).toEqual(['pkg42/sub0/file42.ts', 'pkg7/new-file.ts']);
  });

  it('starts no git but the commit\'s for the next one on that base: its head is the desk\'s own, its trees and rules known', async () => {
    const previous = git(repo, 'rev-parse', 'refs/heads/desk/cost');
    writeFileSync(join(layer.merged, 'pkg42', 'sub0', 'file42.ts'), 'export const value42 = "again";\n');
    // A new file too: whether it is ignored is asked of the snapshot's git, started by the commit before.
    writeFileSync(join(layer.merged, 'pkg7', 'another.ts'), 'export const another = 1;\n');
    let sha: string | undefined;
    const commands = await gitCommandsDuring(async () => {
      sha = await commitLayer({ ...request, ref: 'refs/heads/desk/cost', message: 'again', identity: { name: 'T', email: 't@example.test' } });
    });
    expect(commands.filter((command) => command !== 'config').sort()).toEqual(['commit-tree', 'update-ref']);
    expect(git(repo, 'rev-parse', `${sha as string}^`)).toBe(previous);
    expect(git(repo, 'show', `${sha as string}:pkg42/sub0/file42.ts`)).toBe('export const value42 = "again";');
  });
});
