// Snapshots over time with real git: the base moves (the unused snapshot moved to it, changed files only; a used one
// left alone), prepare again only when prepareWhen says, sweeps keep what is used and the newest, a desk killed while
// making one leaves nothing that looks finished, and disk use counts hard links once.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { commitFiles, git, isolateGitConfig } from '../git/git-test-fixture';
import { blocksUnder, measureDiskUse } from './snapshot-disk-use';
import { linkSnapshotIndex } from './snapshot-index';
import { repoKeyOf } from './snapshot-plan';
import { agentStatus, countingPrepare, createSnapshotFixture, taskGitDir, type SnapshotFixture } from './snapshot-test-fixture';

let restoreGit: () => void;
beforeAll(() => { restoreGit = isolateGitConfig(); });
afterAll(() => restoreGit());

let fixture: SnapshotFixture;
beforeEach(async () => {
  fixture = createSnapshotFixture();
  await fixture.store.start();
});
afterEach(() => fixture.cleanup());

const head = () => git(fixture.repo, 'rev-parse', 'HEAD');
const inode = (path: string) => statSync(path).ino;

describe('when the base moves', () => {
  it('moves the unused previous snapshot to the new commit, rewriting only the changed files', async () => {
    const first = await fixture.store.snapshot(fixture.request(head()));
    const unchanged = inode(join(first.tree, 'src', 'a.ts'));
    const next = commitFiles(fixture.repo, { 'src/b.ts': 'export const b = 3;\n' }, 'change b');
    git(fixture.repo, 'rm', '--quiet', 'README.md');
    git(fixture.repo, 'commit', '--quiet', '-m', 'drop readme');
    const lines: string[] = [];
    const moved = await fixture.store.snapshot(fixture.request(head(), undefined, (line) => lines.push(line)));
    expect(head()).not.toBe(next);
    expect(existsSync(first.dir)).toBe(false);
    expect(inode(join(moved.tree, 'src', 'a.ts'))).toBe(unchanged);
    expect(readFileSync(join(moved.tree, 'src', 'b.ts'), 'utf8')).toBe('export const b = 3;\n');
    expect(existsSync(join(moved.tree, 'README.md'))).toBe(false);
    expect(lines).toContain('checkout: 2 changed files updated');
    // What prepare made is still there, and its index is as trustworthy as a new one's.
    expect(readFileSync(join(moved.tree, 'built', 'out.txt'), 'utf8')).toBe('prepared from lib v1\n');
    const gitDir = await taskGitDir(fixture, moved, 't1');
    const index = statSync(join(gitDir, 'index'));
    expect(agentStatus(gitDir, moved.tree)).toBe('');
    expect(statSync(join(gitDir, 'index')).mtimeMs).toBe(index.mtimeMs);
    expect(readdirSync(moved.gitDir).filter((name) => name.startsWith('sharedindex.'))).toEqual([moved.sharedIndex]);
  });

  it('checks out anew while a task still uses the previous snapshot, which stays as it was', async () => {
    const first = await fixture.store.snapshot(fixture.request(head()), 'running-task');
    const before = inode(join(first.tree, 'src', 'a.ts'));
    commitFiles(fixture.repo, { 'src/b.ts': 'export const b = 3;\n' }, 'change b');
    const next = await fixture.store.snapshot(fixture.request(head()));
    expect(next.dir).not.toBe(first.dir);
    expect(inode(join(first.tree, 'src', 'a.ts'))).toBe(before);
    expect(readFileSync(join(first.tree, 'src', 'b.ts'), 'utf8')).toBe('export const b = 2;\n');
    expect(readFileSync(join(next.tree, 'src', 'b.ts'), 'utf8')).toBe('export const b = 3;\n');
    expect(inode(join(next.tree, 'src', 'a.ts'))).not.toBe(before);
    expect(fixture.prepareRuns()).toBe(2);
  });

  it('checks out anew when git refuses the move (the new commit tracks a file that was copied in)', async () => {
    // Not ignored and not tracked: git keeps such a file from being overwritten (ignored ones it overwrites).
    writeFileSync(join(fixture.repo, 'notes.txt'), 'the person\'s notes\n');
    const first = await fixture.store.snapshot(fixture.request(head(), { copy: ['notes.txt'] }));
    expect(readFileSync(join(first.tree, 'notes.txt'), 'utf8')).toBe('the person\'s notes\n');
    commitFiles(fixture.repo, { 'notes.txt': 'tracked now\n' }, 'track notes.txt');
    const lines: string[] = [];
    const next = await fixture.store.snapshot(fixture.request(head(), { copy: [] }, (line) => lines.push(line)));
    expect(existsSync(first.dir)).toBe(false);
    expect(lines).toContainEqual(expect.stringMatching(/^checkout: could not move the previous snapshot \(.*\); checking out anew$/));
    expect(readFileSync(join(next.tree, 'notes.txt'), 'utf8')).toBe('tracked now\n');
    const gitDir = await taskGitDir(fixture, next, 't1');
    expect(agentStatus(gitDir, next.tree)).toBe('');
  });

  it('runs prepare again only when a file of prepareWhen changed', async () => {
    const config = { copy: ['deps'], prepare: countingPrepare(join(fixture.root, 'prepare.log')), prepareWhen: ['package-lock.json'] };
    await fixture.store.snapshot(fixture.request(head(), config));
    commitFiles(fixture.repo, { 'README.md': '# changed\n' }, 'docs');
    const lines: string[] = [];
    await fixture.store.snapshot(fixture.request(head(), config, (line) => lines.push(line)));
    expect(fixture.prepareRuns()).toBe(1);
    expect(lines).toContain('prepare: not needed (no file of prepareWhen changed)');
    commitFiles(fixture.repo, { 'package-lock.json': '{"v":2}\n' }, 'bump');
    await fixture.store.snapshot(fixture.request(head(), config));
    expect(fixture.prepareRuns()).toBe(2);
    // Without prepareWhen, every snapshot prepares.
    commitFiles(fixture.repo, { 'README.md': '# again\n' }, 'docs');
    await fixture.store.snapshot(fixture.request(head(), { ...config, prepareWhen: undefined }));
    expect(fixture.prepareRuns()).toBe(3);
  });
});

describe('the lifetime of snapshots', () => {
  it('sweeps the snapshots no task uses, keeping the repository\'s newest', async () => {
    const a = await fixture.store.snapshot(fixture.request(head()), 'reviewed');
    commitFiles(fixture.repo, { 'src/b.ts': 'b2\n' }, 'b2');
    const b = await fixture.store.snapshot(fixture.request(head()), 'ended');
    commitFiles(fixture.repo, { 'src/b.ts': 'b3\n' }, 'b3');
    const c = await fixture.store.snapshot(fixture.request(head()), 'ended-too');
    await fixture.store.release('ended');
    await fixture.store.release('ended-too');
    expect(await fixture.store.sweep()).toEqual([`${b.repoKey}/${b.commit}`]);
    expect([existsSync(a.dir), existsSync(b.dir), existsSync(c.dir)]).toEqual([true, false, true]);
    // After a restart the desk names the tasks still in review; a lease of one that ended meanwhile is dropped.
    expect(await fixture.store.sweep(new Set(['someone-else']))).toEqual([`${a.repoKey}/${a.commit}`]);
    expect((await fixture.store.list()).map((snapshot) => [snapshot.commit, snapshot.leases])).toEqual([[c.commit, []]]);
  });

  it('leaves nothing that looks finished when the desk is killed while prepare runs', async () => {
    const started = join(fixture.root, 'prepare-started');
    const request = fixture.request(head(), { copy: [], prepare: `touch '${started}'; exec sleep 60` });
    const script = `import { createSnapshotStore } from ${JSON.stringify(join(import.meta.dirname, 'snapshot-store.ts'))};
      import { createGitRunner } from ${JSON.stringify(join(import.meta.dirname, '..', 'git', 'git-runner.ts'))};
      import { plainPrepare } from ${JSON.stringify(join(import.meta.dirname, 'snapshot-test-fixture.ts'))};
      const store = createSnapshotStore({ dir: ${JSON.stringify(fixture.snapshotsDir)}, git: createGitRunner(), runPrepare: plainPrepare });
      await store.start();
      await store.snapshot(${JSON.stringify(request)}, 'crashing-task');`;
    // A process group of its own, so the kill takes the prepare command too.
    const desk = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'ignore', detached: true, env: process.env });
    await expect.poll(() => existsSync(started), { timeout: 20_000, interval: 50 }).toBe(true);
    process.kill(-(desk.pid ?? 0), 'SIGKILL');
    await once(desk, 'exit');
    const repoDir = join(fixture.snapshotsDir, repoKeyOf(fixture.commonDir));
    expect(readdirSync(repoDir)).toEqual([expect.stringMatching(/^\.making-/)]);
    expect(await fixture.store.list()).toEqual([]);
    await fixture.store.start();
    expect(readdirSync(repoDir)).toEqual([]);
    const made = await fixture.store.snapshot(fixture.request(head()));
    expect(readFileSync(join(made.tree, 'built', 'out.txt'), 'utf8')).toBe('prepared from lib v1\n');
  }, 30_000);

  it('measures disk use counting hard-linked files once', async () => {
    const snapshot = await fixture.store.snapshot(fixture.request(head()));
    const layersDir = join(fixture.root, 'data', 'layers');
    const alone = await measureDiskUse({ snapshotsDir: fixture.snapshotsDir, layersDir });
    expect(alone.snapshots).toBe(1);
    expect(alone.snapshotsBytes).toBeGreaterThan(0);
    expect(alone.layersBytes).toBe(0);
    // A task's layer holding hard links of the snapshot's index, and one file of its own.
    const layer = join(layersDir, 't1');
    mkdirSync(layer, { recursive: true });
    const own = join(layer, 'written.bin');
    writeFileSync(own, Buffer.alloc(64 * 1024, 1));
    mkdirSync(join(layer, 'git'));
    await linkSnapshotIndex(snapshot, join(layer, 'git'));
    expect(await blocksUnder(join(layer, 'git'), new Set())).toBeGreaterThan(statSync(join(layer, 'git')).blocks * 512);
    const withLayer = await measureDiskUse({ snapshotsDir: fixture.snapshotsDir, layersDir });
    expect(withLayer.snapshotsBytes).toBe(alone.snapshotsBytes);
    // The layer costs its own file and folders, not the linked index.
    const dirs = statSync(layersDir).blocks * 512 + statSync(layer).blocks * 512 + statSync(join(layer, 'git')).blocks * 512;
    expect(withLayer.layersBytes).toBe(statSync(own).blocks * 512 + dirs);
    expect(withLayer.totalBytes).toBe(withLayer.snapshotsBytes + withLayer.layersBytes);
  });
});
