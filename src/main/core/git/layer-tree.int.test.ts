import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGitRunner } from './git-runner';
import { git, isolateGitConfig, writeFiles } from './git-test-fixture';
import { commitLayer, commitLayerAlways, layerChanged } from './layer-commit';
import { mountLayer, plainTree, treeDifference, type MountedLayer } from './layer-test-fixture';
import { buildLayerTree, layerTree, type LayerTreeRequest } from './layer-tree';
import { createSnapshotIgnoreRules } from './snapshot-ignore-rules';

let restoreConfig: () => void;
beforeAll(() => { restoreConfig = isolateGitConfig(); });
afterAll(() => restoreConfig());

const BINARY = Buffer.from(Array.from({ length: 2048 }, (_, n) => (n * 7919) % 256));
const BASE_FILES: Record<string, string> = {
  '.gitignore': 'node_modules/\n*.log\ndist/\n',
  'README.md': '# project\n',
  'src/a.ts': 'export const a = 1;\n',
  'src/b.ts': 'export const b = 2;\n',
  'src/deep/c.ts': 'export const c = 3;\n',
  'lib/x.ts': 'export const x = 1;\n',
  'tree/one.txt': 'one\n',
  'tree/two.txt': 'two\n',
  'old/keep.txt': 'keep\n',
  'old/gone.txt': 'gone\n',
  'docs/guide.md': 'guide\n',
  'docs/.gitignore': '*.tmp\n',
  '.claude/settings.local.json': '{"base":true}\n',
  '.claude/agents.md': 'shared\n',
};

interface Fixture {
  root: string;
  repo: string;
  base: string;
  baseTree: string;
  layer: MountedLayer;
  request: LayerTreeRequest;
  ref: string;
}

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.layer.close();
  if (fixture) rmSync(fixture.root, { recursive: true, force: true });
  fixture = undefined;
});

/** A repository with a base commit, a snapshot (its checkout, with a copied node_modules), and a layer over it. */
async function layered(): Promise<Fixture> {
  const root = mkdtempSync(join(tmpdir(), 'desk-layer-'));
  const repo = join(root, 'repo');
  mkdirSync(repo);
  git(repo, 'init', '--quiet', '--initial-branch=main');
  writeFiles(repo, BASE_FILES);
  writeFileSync(join(repo, 'assets.bin'), BINARY);
  writeFileSync(join(repo, 'run.sh'), '#!/bin/sh\necho run\n', { mode: 0o755 });
  symlinkSync('README.md', join(repo, 'readme-link'));
  symlinkSync('src/a.ts', join(repo, 'a-link'));
  git(repo, 'add', '--all');
  git(repo, 'commit', '--quiet', '-m', 'base');
  const base = git(repo, 'rev-parse', 'HEAD');
  const baseTree = git(repo, 'rev-parse', 'HEAD^{tree}');
  const lower = join(root, 'snapshot');
  git(repo, 'worktree', 'add', '--quiet', '--detach', lower, base);
  // What a snapshot's `copy` globs bring in: ignored, never in the base.
  writeFiles(lower, { 'node_modules/x/index.js': 'module.exports = 1;\n', 'node_modules/y/index.js': 'module.exports = 2;\n' });
  const ref = 'refs/heads/desk/task-1';
  git(repo, 'update-ref', ref, base);
  const layer = await mountLayer(root, lower);
  const request: LayerTreeRequest = {
    git: createGitRunner(),
    repo: { gitDir: join(repo, '.git', 'worktrees', 'snapshot'), commonDir: join(repo, '.git') },
    view: { upperDir: layer.upper, mergedDir: layer.merged },
    baseTree,
    scratchDir: root,
    // The desk's way: rules the task did not change are asked of the snapshot's kept git.
    snapshot: { lower, commit: base, rules: createSnapshotIgnoreRules(createGitRunner(), join(repo, '.git')) },
  };
  fixture = { root, repo, base, baseTree, layer, request, ref };
  return fixture;
}

/** The layer's tree equals what `git add --all && git write-tree` makes of a plain copy of the same files. */
async function expectLikeGitAdd(f: Fixture): Promise<string> {
  const ours = await layerTree(f.request);
  const theirs = plainTree(f.repo, f.base, f.layer.merged, f.root);
  expect(ours, `differs from git add --all:\n${treeDifference(f.repo, theirs, ours)}`).toBe(theirs);
  return ours;
}

const at = (f: Fixture, path: string) => join(f.layer.merged, path);
const changed = (f: Fixture) => git(f.repo, 'diff-tree', '-r', '--name-status', '--no-renames', f.baseTree, git(f.repo, 'rev-parse', `${f.ref}^{tree}`)).split('\n').filter(Boolean).sort();

describe('the tree of a layer', () => {
  it('is the base tree when the layer is empty, and nothing is committed', async () => {
    const f = await layered();
    expect(await layerTree(f.request)).toBe(f.baseTree);
    expect(await layerChanged({ ...f.request, ref: f.ref })).toBe(false);
    expect(await commitLayer({ ...f.request, ref: f.ref, message: 'nothing', identity: { name: 'T', email: 't@example.test' } })).toBeUndefined();
    expect(git(f.repo, 'rev-parse', f.ref)).toBe(f.base);
  });

  it('holds files added, modified and deleted through the merged view', async () => {
    const f = await layered();
    writeFileSync(at(f, 'src/new.ts'), 'export const n = 0;\n');
    writeFileSync(at(f, 'src/a.ts'), 'export const a = 10;\n');
    unlinkSync(at(f, 'src/b.ts'));
    mkdirSync(at(f, 'fresh/deeper'), { recursive: true });
    writeFileSync(at(f, 'fresh/deeper/file.txt'), 'fresh\n');
    // Names that sort differently as a file and as a dir (git compares a dir's name as if it ended with '/').
    mkdirSync(at(f, 'src/a'));
    writeFileSync(at(f, 'src/a/inner.ts'), 'inner\n');
    writeFileSync(at(f, 'src/a-b.ts'), 'dash\n');
    writeFileSync(at(f, 'src/a.ts.bak'), 'dot\n');
    writeFileSync(at(f, 'src/a0'), 'zero\n');
    await expectLikeGitAdd(f);
  });

  it('holds what a shell inside the namespace changed: a rename, a moved directory, an edit', async () => {
    const f = await layered();
    f.layer.inside('mv src/a.ts src/renamed.ts && mv src/deep docs/deep && echo more >> docs/guide.md');
    await expectLikeGitAdd(f);
  });

  it('records chmod +x, and the base mode again after chmod -x', async () => {
    const f = await layered();
    chmodSync(at(f, 'src/a.ts'), 0o755);
    chmodSync(at(f, 'run.sh'), 0o644);
    const changedModes = await expectLikeGitAdd(f);
    expect(changedModes).not.toBe(f.baseTree);
    chmodSync(at(f, 'src/a.ts'), 0o644);
    chmodSync(at(f, 'run.sh'), 0o755);
    expect(await expectLikeGitAdd(f)).toBe(f.baseTree);
  });

  it('holds symbolic links: a new one, a retargeted one, one that replaced a file', async () => {
    const f = await layered();
    f.layer.inside('ln -s ../README.md src/readme && ln -sfn src/b.ts a-link && rm docs/guide.md && ln -s /etc/passwd docs/guide.md');
    await expectLikeGitAdd(f);
    expect(git(f.repo, 'cat-file', 'blob', `${await layerTree(f.request)}:docs/guide.md`)).toBe('/etc/passwd');
  });

  it('holds binary files byte for byte, small ones and one larger than the desk reads itself', async () => {
    const f = await layered();
    const bytes = Buffer.concat([BINARY, Buffer.from([0, 0, 255, 13, 10])]);
    writeFileSync(at(f, 'assets.bin'), bytes);
    writeFileSync(at(f, 'new.bin'), BINARY.subarray(0, 100));
    const large = Buffer.concat(Array.from({ length: 800 }, (_, n) => Buffer.concat([BINARY, Buffer.from(String(n))])));
    writeFileSync(at(f, 'src/large.bin'), large);
    const tree = await expectLikeGitAdd(f);
    expect(git(f.repo, 'cat-file', '-s', `${tree}:assets.bin`)).toBe(String(bytes.length));
    expect(git(f.repo, 'cat-file', '-s', `${tree}:src/large.bin`)).toBe(String(large.length));
  });

  it('holds a file that became a directory and a directory that became a file', async () => {
    const f = await layered();
    f.layer.inside('rm lib/x.ts && mkdir lib/x.ts && echo inner > lib/x.ts/inner.ts && rm -r tree && echo flat > tree');
    await expectLikeGitAdd(f);
  });

  it('holds a directory deleted and made again with other content (an opaque dir)', async () => {
    const f = await layered();
    f.layer.inside('rm -r old && mkdir old && echo other > old/other.txt');
    const tree = await expectLikeGitAdd(f);
    expect(git(f.repo, 'ls-tree', '--name-only', `${tree}:old`)).toBe('other.txt');
  });

  it('leaves out an empty directory, new or emptied', async () => {
    const f = await layered();
    f.layer.inside('mkdir -p empty/inner && rm src/deep/c.ts');
    const tree = await expectLikeGitAdd(f);
    expect(git(f.repo, 'ls-tree', '--name-only', tree)).not.toMatch(/^empty$/m);
  });

  it('leaves out ignored files: a snapshot-only file the task changed, and a new ignored file', async () => {
    const f = await layered();
    writeFileSync(at(f, 'node_modules/x/index.js'), 'module.exports = "changed";\n');
    writeFileSync(at(f, 'debug.log'), 'noise\n');
    mkdirSync(at(f, 'dist'));
    writeFileSync(at(f, 'dist/out.js'), 'built\n');
    writeFileSync(at(f, 'src/trace.log'), 'noise\n');
    expect(await expectLikeGitAdd(f)).toBe(f.baseTree);
  });

  it('keeps an ignored file the index tracks (a `git add -f`), as git add --all does, and leaves out the rest', async () => {
    const f = await layered();
    writeFileSync(at(f, 'forced.log'), 'forced\n');
    writeFileSync(at(f, 'other.log'), 'noise\n');
    const blob = git(f.repo, 'hash-object', '-w', at(f, 'forced.log'));
    git(f.repo, `--git-dir=${f.request.repo.gitDir}`, 'update-index', '--add', '--cacheinfo', `100644,${blob},forced.log`);
    const tree = await layerTree(f.request);
    expect(git(f.repo, 'diff-tree', '-r', '--name-only', f.baseTree, tree)).toBe('forced.log');
  });

  it('asks the snapshot only for rules the task left as they were: a dir made anew, a deleted .gitignore, a file where a dir was', async () => {
    const f = await layered();
    f.layer.inside('echo kept > docs/kept.tmp && rm -r src/deep && mkdir -p src/deep && echo a > src/deep/a.tmp');
    await expectLikeGitAdd(f);
    f.layer.inside('rm -r docs && mkdir docs && echo now > docs/now.tmp');
    await expectLikeGitAdd(f);
    f.layer.inside('rm -r node_modules && echo file > node_modules && echo t > lib/t.tmp');
    await expectLikeGitAdd(f);
  });

  it('follows .gitignore files the task wrote or changed, negations and directory patterns included', async () => {
    const f = await layered();
    writeFileSync(at(f, '.gitignore'), 'node_modules/\n*.log\n!keep.log\ngen/\n');
    writeFileSync(at(f, 'keep.log'), 'kept\n');
    writeFileSync(at(f, 'other.log'), 'left\n');
    mkdirSync(at(f, 'pkg/gen'), { recursive: true });
    writeFileSync(at(f, 'pkg/gen/out.txt'), 'generated\n');
    writeFileSync(at(f, 'pkg/.gitignore'), '*.tmp\n');
    writeFileSync(at(f, 'pkg/a.tmp'), 'tmp\n');
    writeFileSync(at(f, 'pkg/a.txt'), 'kept\n');
    mkdirSync(at(f, 'dist'));
    writeFileSync(at(f, 'dist/now-kept.js'), 'no longer ignored\n');
    await expectLikeGitAdd(f);
  });

  it('leaves vendor-local files out: a new one, and a tracked one keeps the base version', async () => {
    const f = await layered();
    writeFileSync(at(f, 'CLAUDE.local.md'), 'notes\n');
    writeFileSync(at(f, '.claude/settings.local.json'), '{"agent":true}\n');
    writeFileSync(at(f, '.claude/agents.md'), 'changed\n');
    const tree = await expectLikeGitAdd(f);
    expect(git(f.repo, 'cat-file', 'blob', `${tree}:.claude/settings.local.json`)).toBe('{"base":true}');
  });

  it('keeps a tracked vendor-local file when the task deleted its whole directory', async () => {
    const f = await layered();
    f.layer.inside('rm -r .claude');
    const tree = await expectLikeGitAdd(f);
    expect(git(f.repo, 'ls-tree', '-r', '--name-only', `${tree}:.claude`)).toBe('settings.local.json');
  });

  it('holds names with a newline, a quote and bytes that are not UTF-8', async () => {
    const f = await layered();
    writeFileSync(Buffer.concat([Buffer.from(`${f.layer.merged}/src/`), Buffer.from('caf\xe9.txt', 'latin1')]), 'latin1\n');
    writeFileSync(at(f, 'src/two\nlines.txt'), 'newline\n');
    writeFileSync(at(f, '"quoted".txt'), 'quote\n');
    await expectLikeGitAdd(f);
  });

  it('changes nothing for a file touched or rewritten with the same content', async () => {
    const f = await layered();
    writeFileSync(at(f, 'src/a.ts'), readFileSync(at(f, 'src/a.ts')));
    utimesSync(at(f, 'docs/guide.md'), new Date(), new Date());
    f.layer.inside('touch README.md');
    expect(await expectLikeGitAdd(f)).toBe(f.baseTree);
    expect(await layerChanged({ ...f.request, ref: f.ref })).toBe(false);
    expect(await commitLayer({ ...f.request, ref: f.ref, message: 'nothing', identity: { name: 'T', email: 't@example.test' } })).toBeUndefined();
  });

  it('keeps a submodule of the base as the base has it, whatever was written in its dir', async () => {
    const f = await layered();
    const inner = git(f.repo, 'commit-tree', f.baseTree, '-m', 'a commit of another repository');
    const listing = `${git(f.repo, 'ls-tree', f.baseTree)}\n160000 commit ${inner}\tsub\n`;
    const withSubmodule = execFileSync('git', ['mktree'], { cwd: f.repo, input: listing, encoding: 'utf8' }).trim();
    const request = { ...f.request, baseTree: withSubmodule };
    mkdirSync(at(f, 'sub'));
    writeFileSync(at(f, 'sub/file.txt'), 'inside the submodule\n');
    writeFileSync(at(f, 'README.md'), 'changed\n');
    const tree = await layerTree(request);
    expect(git(f.repo, 'ls-tree', tree, 'sub')).toBe(`160000 commit ${inner}\tsub`);
    expect(git(f.repo, 'diff-tree', '-r', '--name-only', withSubmodule, tree)).toBe('README.md');
  });

  it('says the layer is not mounted when the process holding it has ended', async () => {
    const f = await layered();
    writeFileSync(at(f, 'src/a.ts'), 'changed\n');
    await f.layer.close();
    await expect(layerTree(f.request)).rejects.toThrow(/not mounted there, or the process holding it has ended/);
  });

  it('reads only the base trees of the changed paths and their ancestors', async () => {
    const f = await layered();
    writeFileSync(at(f, 'src/deep/c.ts'), 'changed\n');
    const built = await buildLayerTree(f.request);
    expect(built.baseTreesRead.sort()).toEqual(['', 'src', 'src/deep']);
  });
});

describe('committing a layer', () => {
  const identity = { name: 'Desk Person', email: 'person@example.test' };

  it('commits on the branch head with the message kept verbatim, then again on that commit', async () => {
    const f = await layered();
    writeFileSync(at(f, 'src/a.ts'), 'export const a = 2;\n');
    const message = 'Change a\n\n  indented\n\n# not a comment\n--not-an-option\n';
    const first = await commitLayer({ ...f.request, ref: f.ref, message, identity });
    expect(first).toMatch(/^[0-9a-f]{40}$/);
    expect(git(f.repo, 'rev-parse', f.ref)).toBe(first);
    expect(git(f.repo, 'rev-parse', `${f.ref}^`)).toBe(f.base);
    const raw = `${git(f.repo, 'cat-file', 'commit', first as string)}\n`;
    expect(raw.slice(raw.indexOf('\n\n') + 2)).toBe(message);
    expect(git(f.repo, 'log', '-1', '--format=%an <%ae>', f.ref)).toBe('Desk Person <person@example.test>');
    expect(changed(f)).toEqual(['M\tsrc/a.ts']);
    expect(await layerChanged({ ...f.request, ref: f.ref })).toBe(false);
    expect(await commitLayer({ ...f.request, ref: f.ref, message: 'again', identity })).toBeUndefined();

    renameSync(at(f, 'src/b.ts'), at(f, 'src/bee.ts'));
    expect(await layerChanged({ ...f.request, ref: f.ref })).toBe(true);
    const second = await commitLayer({ ...f.request, ref: f.ref, message: 'rename b', identity });
    expect(git(f.repo, 'rev-parse', `${f.ref}^`)).toBe(first);
    expect(git(f.repo, 'rev-parse', `${second as string}^{tree}`)).toBe(plainTree(f.repo, f.base, f.layer.merged, f.root));
  });

  it('commits even when nothing changed when asked to (the retire snapshot)', async () => {
    const f = await layered();
    const sha = await commitLayerAlways({ ...f.request, ref: f.ref, message: 'retired', identity });
    expect(git(f.repo, 'rev-parse', f.ref)).toBe(sha);
    expect(git(f.repo, 'rev-parse', `${sha}^{tree}`)).toBe(f.baseTree);
  });

  it('leaves the branch where someone else moved it meanwhile, and says so', async () => {
    const f = await layered();
    writeFileSync(at(f, 'src/a.ts'), 'export const a = 3;\n');
    const theirs = git(f.repo, 'commit-tree', f.baseTree, '-p', f.base, '-m', 'someone else');
    // A git on PATH that moves the branch to their commit just before the desk's update-ref runs.
    const shims = join(f.root, 'shims');
    mkdirSync(shims);
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(join(shims, 'git'), `#!/bin/sh\nif [ "$1" = update-ref ]; then '${realGit}' update-ref "$4" ${theirs}; fi\nexec '${realGit}' "$@"\n`, { mode: 0o755 });
    const path = process.env.PATH;
    process.env.PATH = `${shims}:${path ?? ''}`;
    try {
      await expect(commitLayer({ ...f.request, ref: f.ref, message: 'mine', identity })).rejects.toMatchObject({ code: 'branch_moved' });
    } finally {
      process.env.PATH = path;
    }
    expect(git(f.repo, 'rev-parse', f.ref)).toBe(theirs);
  });

  it('refuses a branch given without its refs/heads/ prefix', async () => {
    const f = await layered();
    await expect(commitLayer({ ...f.request, ref: 'desk/task-1', message: 'm', identity })).rejects.toThrow(/refs\/heads/);
  });
});
