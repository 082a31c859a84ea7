// Test support for snapshots: a real repository in a temp dir with executable files, symlinks and ignored files, a
// store over a data dir beside it, a prepare runner that counts its runs, and git run the way an agent's would.
import { spawn, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGitRunner } from '../git/git-runner';
import { commitFiles, git } from '../git/git-test-fixture';
import { linkSnapshotIndex } from './snapshot-index';
import { createSnapshotStore, type RunPrepare, type Snapshot, type SnapshotRequest, type SnapshotStore } from './snapshot-store';

export interface SnapshotFixture {
  root: string;
  repo: string;
  commonDir: string;
  snapshotsDir: string;
  store: SnapshotStore;
  /** How many times prepare ran, from a log outside every snapshot. */
  prepareRuns(): number;
  /** A request for `commit` with the repository's config. */
  request(commit: string, config?: SnapshotRequest['config'], onProgress?: (line: string) => void): SnapshotRequest;
  cleanup(): void;
}

/** A prepare command that logs its run outside the tree and leaves an output inside it. */
export function countingPrepare(log: string): string {
  return `echo run >> '${log}' && mkdir -p built && echo "prepared from $(cat deps/lib.txt)" > built/out.txt && echo installing`;
}

/** Runs the command unconfined, as the integration's confined runner would (output streamed, exit code reported). */
export const plainPrepare: RunPrepare = (dir, command, onOutput) => new Promise((resolve) => {
  const child = spawn('sh', ['-c', command], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk: Buffer) => onOutput(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => onOutput(chunk.toString()));
  child.once('close', (exitCode, signal) => resolve({ exitCode, signal }));
});

export function createSnapshotFixture(): SnapshotFixture {
  const root = mkdtempSync(join(tmpdir(), 'desk-snapshots-'));
  const repo = join(root, 'repo');
  mkdirSync(repo);
  git(repo, 'init', '--quiet', '--initial-branch=main');
  writeFileSync(join(repo, '.gitignore'), '.env\ndeps/\nbuilt/\n');
  mkdirSync(join(repo, 'bin'));
  writeFileSync(join(repo, 'bin', 'run.sh'), '#!/bin/sh\necho run\n');
  chmodSync(join(repo, 'bin', 'run.sh'), 0o755);
  symlinkSync('bin/run.sh', join(repo, 'run-link'));
  commitFiles(repo, { 'README.md': '# project\n', 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 2;\n', 'package-lock.json': '{"v":1}\n' }, 'initial');
  // What the person has but git ignores.
  writeFileSync(join(repo, '.env'), 'API_URL=http://localhost\n');
  mkdirSync(join(repo, 'deps'));
  writeFileSync(join(repo, 'deps', 'lib.txt'), 'lib v1');
  const log = join(root, 'prepare.log');
  const snapshotsDir = join(root, 'data', 'snapshots');
  const store = createSnapshotStore({ dir: snapshotsDir, git: createGitRunner({ hooksDir: join(root, 'hooks') }), runPrepare: plainPrepare });
  return {
    root, repo, commonDir: join(repo, '.git'), snapshotsDir, store,
    prepareRuns: () => { try { return readFileSync(log, 'utf8').split('\n').filter(Boolean).length; } catch { return 0; } },
    request: (commit, config = { copy: ['.env', 'deps'], prepare: countingPrepare(log) }, onProgress) => ({
      commonDir: join(repo, '.git'), checkout: repo, commit, config, ...(onProgress && { onProgress }),
    }),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A task's own git dir over the repository, holding hard links of the snapshot's index. */
export async function taskGitDir(fixture: SnapshotFixture, snapshot: Snapshot, name: string): Promise<string> {
  const dir = join(fixture.root, 'tasks', name, 'git');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'commondir'), `${fixture.commonDir}\n`);
  writeFileSync(join(dir, 'HEAD'), `${snapshot.commit}\n`);
  await linkSnapshotIndex(snapshot, dir);
  return dir;
}

/** `git status --porcelain` as an agent's git runs it: its git dir and work tree named, no global config. */
export function agentStatus(gitDir: string, workTree: string, ...config: string[]): string {
  return execFileSync('git', [...config.flatMap((setting) => ['-c', setting]), 'status', '--porcelain'], {
    cwd: workTree, encoding: 'utf8', env: { ...process.env, GIT_DIR: gitDir, GIT_WORK_TREE: workTree },
  }).trim();
}
