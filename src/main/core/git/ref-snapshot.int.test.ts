// The ref snapshot read from git's files against git's own `for-each-ref` answer, over real repositories with loose,
// packed, annotated, nested and remote refs; and how many git processes it costs the desk.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGitRunner, type GitRunner } from './git-runner';
import { commitFiles, git, isolateGitConfig } from './git-test-fixture';
import { createSandbox, type Sandbox } from './git-test-fixture';
import { readRefFiles, type LooseRefMemory } from './ref-files';
import { createRefSnapshots, type RefSnapshots } from './ref-snapshot';
import { hiddenTaskBranchesFor } from './ref-snapshot-text';
import { REF_SNAPSHOT_FORMAT, REF_SNAPSHOT_PATTERNS } from './task-git-dir-plan';

let restoreConfig: () => void;
beforeAll(() => { restoreConfig = isolateGitConfig(); });
afterAll(() => restoreConfig());

let sandbox: Sandbox;
let calls: string[];
let snapshots: RefSnapshots;
beforeEach(() => {
  sandbox = createSandbox();
  const real = createGitRunner({ hooksDir: sandbox.hooksDir });
  calls = [];
  const counted: GitRunner = {
    exec: (repo, args, options) => { calls.push(args[0] ?? ''); return real.exec(repo, args, options); },
    run: (repo, args, options) => { calls.push(args[0] ?? ''); return real.run(repo, args, options); },
    blob: (repo, spec) => real.blob(repo, spec),
    configuredKeys: (repo) => real.configuredKeys(repo),
    invocation: (repo, args, options) => real.invocation(repo, args, options),
  };
  snapshots = createRefSnapshots(counted);
});
afterEach(() => sandbox.cleanup());

const repo = () => sandbox.repo;
const commonDir = () => join(sandbox.repo, '.git');
/** What git itself lists, as the desk used to ask it. */
const gitsOwn = (dir = repo()) => git(dir, 'for-each-ref', `--format=${REF_SNAPSHOT_FORMAT}`, ...REF_SNAPSHOT_PATTERNS);

/** Branches, lightweight, annotated and nested tags, and remote-tracking branches with a clone's symbolic HEAD. */
function manyKindsOfRefs(): void {
  git(repo(), 'branch', 'feature/one');
  git(repo(), 'tag', 'light');
  git(repo(), 'tag', '-a', '-m', 'release', 'v1');
  git(repo(), 'tag', '-a', '-m', 'a tag of a tag', 'v1-signed', 'v1');
  git(repo(), 'tag', '-a', '-m', 'a tree', 'tree-tag', 'HEAD^{tree}');
  const upstream = join(sandbox.root, 'upstream');
  git(sandbox.root, 'clone', '--quiet', repo(), upstream);
  commitFiles(upstream, { 'up.txt': 'up\n' }, 'upstream work');
  git(repo(), 'remote', 'add', 'origin', upstream);
  git(repo(), 'fetch', '--quiet', 'origin');
  git(repo(), 'remote', 'set-head', 'origin', 'main');
}

describe('the ref snapshot read from files', () => {
  it('lists what git lists for loose branches, tags of every kind and remote refs with a symbolic HEAD', async () => {
    manyKindsOfRefs();
    expect(await snapshots.read(commonDir())).toBe(gitsOwn());
  });

  it('lists what git lists once the refs are packed, and once some move on after packing', async () => {
    manyKindsOfRefs();
    git(repo(), 'pack-refs', '--all');
    expect(await snapshots.read(commonDir())).toBe(gitsOwn());
    commitFiles(repo(), { 'later.txt': 'later\n' }, 'after packing');
    git(repo(), 'branch', '--force', 'feature/one', 'main');
    git(repo(), 'tag', '-a', '-m', 'moved', '--force', 'v1', 'main');
    git(repo(), 'tag', '-d', 'light');
    expect(await snapshots.read(commonDir())).toBe(gitsOwn());
  });

  it('lists what git lists after a gc put every object in a pack, and after new commits on top', async () => {
    manyKindsOfRefs();
    git(repo(), 'gc', '--quiet');
    expect(await snapshots.read(commonDir())).toBe(gitsOwn());
    commitFiles(repo(), { 'later.txt': 'later\n' }, 'after gc');
    git(repo(), 'tag', '-a', '-m', 'new', 'v2');
    expect(await snapshots.read(commonDir())).toBe(gitsOwn());
  });

  it('lists nothing, as git does, for a repository whose only branch has no commit yet', async () => {
    sandbox.cleanup();
    sandbox = createSandbox({ empty: true });
    expect(await snapshots.read(commonDir())).toBe(gitsOwn());
    expect(gitsOwn()).toBe('');
  });
});

describe('what the ref snapshot costs', () => {
  it('starts no git process for refs whose objects are loose, annotated tags included', async () => {
    manyKindsOfRefs();
    git(repo(), 'pack-refs', '--all');
    expect(await snapshots.read(commonDir())).toBe(gitsOwn());
    expect(calls).toEqual([]);
  });

  it('asks git once for objects kept only in packs, and reads from files after that', async () => {
    manyKindsOfRefs();
    git(repo(), 'gc', '--quiet');
    await snapshots.read(commonDir());
    commitFiles(repo(), { 'later.txt': 'later\n' }, 'after gc');
    git(repo(), 'branch', 'desk/task-1');
    expect(await snapshots.read(commonDir())).toBe(gitsOwn());
    expect(calls).toEqual(['for-each-ref']);
  });

  it('leaves out a ref being written, as git does, without asking git', async () => {
    writeFileSync(join(commonDir(), 'refs', 'heads', 'being-written.lock'), `${git(repo(), 'rev-parse', 'main')}\n`);
    expect(await snapshots.read(commonDir())).toBe(gitsOwn());
    expect(calls).toEqual([]);
  });
});

describe('refs the files leave to git', () => {
  it('asks git about a loose ref that is a link, and gives its answer', async () => {
    git(repo(), 'branch', 'target');
    symlinkSync(join(commonDir(), 'refs', 'heads', 'target'), join(commonDir(), 'refs', 'heads', 'linked'));
    expect(await snapshots.read(commonDir())).toBe(gitsOwn());
    expect(calls).toEqual(['for-each-ref']);
  });

  it('reads a few hundred loose refs (a desk\'s finished tasks\' branches) from files, without git', async () => {
    const main = git(repo(), 'rev-parse', 'main');
    execFileSync('git', ['update-ref', '--stdin'], { cwd: repo(), input: Array.from({ length: 300 }, (_, index) => `create refs/heads/desk/x/task-${index} ${main}\n`).join('') });
    expect(await snapshots.read(commonDir())).toBe(gitsOwn());
    expect(calls).toEqual([]);
  });

  it('asks git once there are more loose refs than reading them one by one is worth', async () => {
    const main = git(repo(), 'rev-parse', 'main');
    execFileSync('git', ['update-ref', '--stdin'], { cwd: repo(), input: Array.from({ length: 520 }, (_, index) => `create refs/heads/task-${index} ${main}\n`).join('') });
    expect(await snapshots.read(commonDir())).toBe(gitsOwn());
    expect(calls).toEqual(['for-each-ref']);
  });

  it('asks git about a symbolic ref naming another symbolic ref', async () => {
    git(repo(), 'symbolic-ref', 'refs/heads/alias', 'refs/heads/main');
    git(repo(), 'symbolic-ref', 'refs/heads/alias-of-alias', 'refs/heads/alias');
    expect(await snapshots.read(commonDir())).toBe(gitsOwn());
    expect(calls).toEqual(['for-each-ref']);
  });

  it('asks git when objects are replaced, since git peels through the replacement', async () => {
    const first = git(repo(), 'rev-parse', 'HEAD');
    const second = commitFiles(repo(), { 'b.txt': 'b\n' });
    git(repo(), 'replace', second, first);
    expect(await snapshots.read(commonDir())).toBe(gitsOwn());
    expect(calls).toEqual(['for-each-ref']);
  });

  it('asks git when packed-refs was written without peel data', async () => {
    git(repo(), 'tag', '-a', '-m', 'release', 'v1');
    git(repo(), 'pack-refs', '--all');
    const lines = [git(repo(), 'rev-parse', 'refs/tags/v1'), git(repo(), 'rev-parse', 'main')];
    writeFileSync(join(commonDir(), 'packed-refs'), `${lines[0]} refs/tags/v1\n${lines[1]} refs/heads/main\n`);
    expect(await snapshots.read(commonDir())).toBe(gitsOwn());
    expect(calls).toEqual(['for-each-ref']);
  });

  it('asks git about a ref name with characters the files do not sort as git does', async () => {
    mkdirSync(join(commonDir(), 'refs', 'heads', 'ü'), { recursive: true });
    git(repo(), 'branch', 'ü/x');
    git(repo(), 'branch', 'z');
    expect(await snapshots.read(commonDir())).toBe(gitsOwn());
    expect(calls).toEqual(['for-each-ref']);
  });
});

describe('loose refs remembered between runs', () => {
  const aMinuteOn = () => Date.now() + 60_000;
  const looseOf = (read: ReturnType<typeof readRefFiles>) => (read.kind === 'files' ? Object.fromEntries(read.files.loose) : read.why);

  it('gives a ref\'s new commit once git moved it, and leaves out one git deleted', () => {
    const first = git(repo(), 'rev-parse', 'main');
    git(repo(), 'branch', 'moving');
    git(repo(), 'branch', 'going');
    const memory: LooseRefMemory = new Map();
    expect(looseOf(readRefFiles(commonDir(), memory, aMinuteOn()))).toMatchObject({ 'refs/heads/moving': `${first}\n`, 'refs/heads/going': `${first}\n` });
    const second = commitFiles(repo(), { 'next.txt': 'next\n' });
    git(repo(), 'branch', '--force', 'moving', second);
    git(repo(), 'branch', '--delete', 'going');
    const after = looseOf(readRefFiles(commonDir(), memory, aMinuteOn()));
    expect(after).toMatchObject({ 'refs/heads/moving': `${second}\n` });
    expect(after).not.toHaveProperty('refs/heads/going');
  });
});

describe('a task\'s view: its desk\'s other task branches left out', () => {
  const own = 'refs/heads/desk/k3f9qz2a/mine-3f2a9c1b';
  const hidden = hiddenTaskBranchesFor(own);
  /** git's own list without the desk's other task branches. */
  const gitsOwnShown = () => gitsOwn().split('\n').filter((line) => !line.includes(' refs/heads/desk/k3f9qz2a/') || line.endsWith(` ${own}`)).join('\n');
  const deskBranches = (count: number) => {
    const main = git(repo(), 'rev-parse', 'main');
    const refs = [own, 'refs/heads/desk/other-desk/theirs', ...Array.from({ length: count }, (_, index) => `refs/heads/desk/k3f9qz2a/task-${index}`)];
    execFileSync('git', ['update-ref', '--stdin'], { cwd: repo(), input: refs.map((ref) => `create ${ref} ${main}\n`).join('') });
  };

  it('reads only the task\'s own branch of its desk\'s folder, loose, and lists the rest as git does', async () => {
    git(repo(), 'tag', '-a', '-m', 'release', 'v1');
    deskBranches(600);
    const listed = await snapshots.read(commonDir(), hidden);
    expect(listed).toBe(gitsOwnShown());
    expect(listed).toContain(own);
    expect(listed).toContain('refs/heads/desk/other-desk/theirs');
    expect(listed).not.toContain('task-1');
    // 600 loose refs would have been past what the files answer for: these were never read.
    expect(calls).toEqual([]);
  });

  it('leaves them out once packed, and when git is asked', async () => {
    deskBranches(20);
    git(repo(), 'pack-refs', '--all');
    expect(await snapshots.read(commonDir(), hidden)).toBe(gitsOwnShown());
    expect(calls).toEqual([]);
    // A symbolic ref naming another is git's to follow: its answer is left without them too.
    git(repo(), 'symbolic-ref', 'refs/heads/alias', 'refs/heads/main');
    git(repo(), 'symbolic-ref', 'refs/heads/alias-of-alias', 'refs/heads/alias');
    const listed = await snapshots.read(commonDir(), hidden);
    expect(calls).toEqual(['for-each-ref']);
    expect(listed).toBe(gitsOwnShown());
    expect(listed).not.toContain('task-1');
  });
});
