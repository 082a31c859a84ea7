// Snapshots of a base commit with real git: made once with the commit's files, the copied ignored files and what
// prepare made; reused; an index git trusts without reading files; an overlay over it that git sees as the commit.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findNamespaceTools } from '../sandbox/state-namespace';
import { git, isolateGitConfig } from '../git/git-test-fixture';
import { agentStatus, createSnapshotFixture, taskGitDir, type SnapshotFixture } from './snapshot-test-fixture';

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

describe('a snapshot of a base commit', () => {
  it('holds the commit\'s files with their modes and symlinks, the copied ignored files and what prepare made', async () => {
    const lines: string[] = [];
    const snapshot = await fixture.store.snapshot(fixture.request(head(), undefined, (line) => lines.push(line)));
    expect(snapshot.dir).toBe(join(fixture.snapshotsDir, snapshot.repoKey, head()));
    const tracked = git(fixture.repo, 'ls-tree', '-r', 'HEAD').split('\n').map((line) => {
      const [mode, , , path] = line.split(/\s+/);
      return { mode, path: path ?? '' };
    });
    expect(tracked.length).toBe(7);
    for (const { mode, path } of tracked) {
      const file = join(snapshot.tree, path);
      const info = lstatSync(file);
      if (mode === '120000') {
        expect(info.isSymbolicLink()).toBe(true);
        expect(readlinkSync(file)).toBe(readlinkSync(join(fixture.repo, path)));
      } else {
        expect(readFileSync(file)).toEqual(readFileSync(join(fixture.repo, path)));
        expect((info.mode & 0o111) !== 0).toBe(mode === '100755');
      }
    }
    expect(readFileSync(join(snapshot.tree, '.env'), 'utf8')).toBe('API_URL=http://localhost\n');
    expect(readFileSync(join(snapshot.tree, 'built', 'out.txt'), 'utf8')).toBe('prepared from lib v1\n');
    expect(fixture.prepareRuns()).toBe(1);
    expect(lines).toEqual(expect.arrayContaining([
      expect.stringMatching(/^checkout: /), 'copy: .env, deps', expect.stringMatching(/^prepare: echo run/), 'prepare: installing', 'ready',
    ]));
  });

  it('returns the existing snapshot for a second request of the same commit without making anything', async () => {
    const first = await fixture.store.snapshot(fixture.request(head()));
    const inode = statSync(join(first.tree, 'README.md')).ino;
    const lines: string[] = [];
    const second = await fixture.store.snapshot(fixture.request(head(), undefined, (line) => lines.push(line)));
    expect(second).toEqual(first);
    expect(statSync(join(second.tree, 'README.md')).ino).toBe(inode);
    expect(fixture.prepareRuns()).toBe(1);
    expect(lines).toEqual([]);
  });

  it('makes an unused snapshot anew when the prepare command changed, and keeps a used one as it is', async () => {
    const first = await fixture.store.snapshot(fixture.request(head()), 'reviewing');
    const changed = { copy: ['.env', 'deps'], prepare: 'echo second > second.txt' };
    const kept = await fixture.store.snapshot(fixture.request(head(), changed));
    expect(kept.prepared).toBe(first.prepared);
    expect(existsSync(join(kept.tree, 'second.txt'))).toBe(false);
    await fixture.store.release('reviewing');
    const lines: string[] = [];
    const remade = await fixture.store.snapshot(fixture.request(head(), changed, (line) => lines.push(line)));
    expect(remade.prepared).toBe('echo second > second.txt');
    expect(readFileSync(join(remade.tree, 'second.txt'), 'utf8')).toBe('second\n');
    expect(existsSync(join(remade.tree, 'built'))).toBe(false);
    expect(lines[0]).toMatch(/made with another copy or prepare; making it anew$/);
  });

  it('makes a snapshot once for concurrent requests of the same commit', async () => {
    const made = await Promise.all([1, 2, 3].map((n) => fixture.store.snapshot(fixture.request(head()), `task-${n}`)));
    expect(new Set(made.map((snapshot) => snapshot.dir)).size).toBe(1);
    expect(fixture.prepareRuns()).toBe(1);
    expect((await fixture.store.list())[0]?.leases.slice().sort()).toEqual(['task-1', 'task-2', 'task-3']);
  });

  it('has an index git trusts: status reads no file and rewrites no index', async () => {
    const snapshot = await fixture.store.snapshot(fixture.request(head()));
    const gitDir = await taskGitDir(fixture, snapshot, 't1');
    const index = statSync(join(gitDir, 'index'));
    // A task's copy of the index is the snapshot's own inodes: no blocks of its own.
    expect(index.ino).toBe(statSync(join(snapshot.gitDir, 'index')).ino);
    expect(statSync(join(gitDir, snapshot.sharedIndex)).ino).toBe(statSync(join(snapshot.gitDir, snapshot.sharedIndex)).ino);
    expect(agentStatus(gitDir, snapshot.tree)).toBe('');
    // Not rewritten: git found nothing to refresh and no entry it could not trust.
    const after = statSync(join(gitDir, 'index'));
    expect([after.ino, after.mtimeMs]).toEqual([index.ino, index.mtimeMs]);
    // A same-size edit whose mtime is put back goes unseen (ctime aside): git compared stat data, never the bytes.
    const file = join(snapshot.tree, 'src', 'a.ts');
    const { atime, mtime } = statSync(file);
    writeFileSync(file, 'export const a = 9;\n');
    utimesSync(file, atime, mtime);
    expect(agentStatus(gitDir, snapshot.tree, 'core.trustctime=false')).toBe('');
    expect(agentStatus(gitDir, snapshot.tree)).toBe('M src/a.ts');
  });

  it.skipIf(!findNamespaceTools(process.env.PATH ?? ''))('shows a clean status through an overlay over the snapshot and reports a file changed in it', async () => {
    const snapshot = await fixture.store.snapshot(fixture.request(head()));
    const gitDir = await taskGitDir(fixture, snapshot, 't1');
    const layer = join(fixture.root, 'tasks', 't1');
    for (const dir of ['upper', 'work', 'files']) mkdirSync(join(layer, dir));
    const before = statSync(join(gitDir, 'index'));
    // Mounted as the sandbox's holder mounts layers; git then runs as the desk's own user again (as in bubblewrap), so
    // the files' owners match the index.
    const script = [
      'mount -t overlay overlay -o "lowerdir=$1,upperdir=$2/upper,workdir=$2/work,userxattr" "$2/files" || exit 1',
      'layer=$2; gitdir=$3; uid=$4; gid=$5',
      'git_status() { unshare --user --map-user="$uid" --map-group="$gid" env GIT_DIR="$gitdir" GIT_WORK_TREE="$layer/files" git -C "$layer/files" status --porcelain; }',
      'git_status; stat -c %i "$gitdir/index"; echo ---',
      'echo changed >> "$layer/files/src/b.ts"; rm "$layer/files/README.md"; echo new > "$layer/files/new.txt"',
      'git_status',
    ].join('\n');
    const output = execFileSync('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', script, 'overlay', snapshot.tree, layer, gitDir,
      String(process.getuid?.()), String(process.getgid?.())], { encoding: 'utf8' });
    const [clean, changed] = output.split('---\n');
    // Clean, and the task's index still the snapshot's inode: git rewrote nothing.
    expect(clean).toBe(`${before.ino}\n`);
    expect(changed?.split('\n').filter(Boolean)).toEqual([' D README.md', ' M src/b.ts', '?? new.txt']);
    // The snapshot's files are untouched by the overlay's writes.
    expect(readFileSync(join(snapshot.tree, 'src', 'b.ts'), 'utf8')).toBe('export const b = 2;\n');
    expect(readdirSync(snapshot.tree)).toContain('README.md');
    expect(statSync(join(snapshot.gitDir, 'index')).mtimeMs).toBe(before.mtimeMs);
  });
});
