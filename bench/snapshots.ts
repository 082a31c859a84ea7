// Snapshots of base commits (src/main/core/workspace/snapshot-store.ts) on generated repositories: time to make one,
// to reuse it, to make the next after a one-file change (the previous one moved), and a task's `git status` over it,
// beside a raw `git worktree add` of the same commit. Run by hand: `npx tsx bench/snapshots.ts --files 5000`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createGitRunner, createSnapshotStore, linkSnapshotIndex, measureDiskUse } from '../src/main/core/testing';
import { isMain, readCount, runMain } from './bench-support';

const FILES_PER_DIR = 100;
const FILE_BYTES = 2048;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.test', '-c', 'gc.auto=0', ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 }).trim();
}

function makeRepository(repo: string, files: number): void {
  mkdirSync(repo, { recursive: true });
  git(repo, 'init', '--quiet', '--initial-branch=main');
  const body = 'x'.repeat(FILE_BYTES - 20);
  for (let n = 0; n < files; n++) {
    const dir = join(repo, 'src', `d${Math.floor(n / FILES_PER_DIR)}`);
    if (n % FILES_PER_DIR === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${n}.txt`), `${n}\n${body}\n`);
  }
  git(repo, 'add', '--all');
  git(repo, 'commit', '--quiet', '--no-verify', '-m', 'generated');
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

export async function benchSnapshots(files: number): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), 'desk-bench-snapshots-'));
  try {
    const repo = join(root, 'repo');
    makeRepository(repo, files);
    const commonDir = join(repo, '.git');
    const store = createSnapshotStore({
      dir: join(root, 'data', 'snapshots'), git: createGitRunner({ hooksDir: join(root, 'hooks') }),
      runPrepare: async () => ({ exitCode: 0 }),
    });
    await store.start();
    const request = (commit: string) => ({ commonDir, checkout: repo, commit, config: { copy: [] } });

    const [, rawMs] = await timed(async () => git(repo, 'worktree', 'add', '--quiet', '--detach', join(root, 'raw'), 'HEAD'));
    const first = git(repo, 'rev-parse', 'HEAD');
    const [snapshot, makeMs] = await timed(() => store.snapshot(request(first)));
    const [, reuseMs] = await timed(() => store.snapshot(request(first)));

    const taskGit = join(root, 'task-git');
    mkdirSync(taskGit);
    writeFileSync(join(taskGit, 'commondir'), `${commonDir}\n`);
    writeFileSync(join(taskGit, 'HEAD'), `${first}\n`);
    const [, linkMs] = await timed(() => linkSnapshotIndex(snapshot, taskGit));
    const statusStarted = performance.now();
    const status = execFileSync('git', ['status', '--porcelain'], { cwd: snapshot.tree, encoding: 'utf8', env: { ...process.env, GIT_DIR: taskGit, GIT_WORK_TREE: snapshot.tree } });
    const statusMs = performance.now() - statusStarted;
    const rawStatusStarted = performance.now();
    execFileSync('git', ['status', '--porcelain'], { cwd: join(root, 'raw'), encoding: 'utf8' });
    const rawStatusMs = performance.now() - rawStatusStarted;
    rmSync(taskGit, { recursive: true });

    writeFileSync(join(repo, 'src', 'd0', 'f0.txt'), 'changed\n');
    git(repo, 'commit', '--quiet', '--no-verify', '-am', 'one file');
    const [, moveMs] = await timed(() => store.snapshot(request(git(repo, 'rev-parse', 'HEAD'))));
    // Again after the snapshots: the first raw run can pay for the generated repository's writes still being flushed.
    const [, rawAgainMs] = await timed(async () => git(repo, 'worktree', 'add', '--quiet', '--detach', join(root, 'raw-again'), 'HEAD'));
    const disk = await measureDiskUse({ snapshotsDir: join(root, 'data', 'snapshots') });
    const ms = (value: number) => `${Math.round(value)} ms`;
    return [
      `${files.toLocaleString('en-US')} files of ${FILE_BYTES} bytes:`,
      `  raw git worktree add      ${ms(rawMs)} first, ${ms(rawAgainMs)} after the snapshots`,
      `  make a snapshot           ${ms(makeMs)}`,
      `  reuse it                  ${ms(reuseMs)}`,
      `  link its index (a task)   ${ms(linkMs)}`,
      `  git status over it        ${ms(statusMs)}${status.trim() === '' ? '' : ' (NOT clean)'} (raw worktree: ${ms(rawStatusMs)})`,
      `  next after a 1-file change ${ms(moveMs)} (previous one moved)`,
      `  disk: ${(disk.snapshotsBytes / 1e6).toFixed(1)} MB in ${disk.snapshots} snapshot(s)`,
    ];
  } finally {
    // A failure to clean up must not hide the run's own error.
    try { rmSync(root, { recursive: true, force: true, maxRetries: 3 }); } catch (error) { console.error(`left ${root}: ${String(error)}`); }
  }
}

if (isMain(import.meta.url)) {
  runMain(async () => {
    for (const line of await benchSnapshots(readCount(process.argv, '--files', 5000))) console.log(line);
  });
}
