// Test support for layer commits: a real overlay over a checkout of a base commit, mounted in a user and mount namespace
// as the desk's holder does it (../sandbox/state-namespace.ts), reached from outside through /proc/<pid>/root; and what
// `git add --all && git write-tree` makes of the same files in a plain copy, to compare with.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { git } from './git-test-fixture';
import { ALL_BUT_LOCAL_FILES } from './vendor-local-files';

export interface MountedLayer {
  lower: string;
  upper: string;
  /** The mount point (inside the namespace). */
  target: string;
  /** The merged view as the desk reaches it: /proc/<pid>/root/<target>. */
  merged: string;
  pid: number;
  /** Runs a shell script inside the namespace (cwd: the mount point), as an agent's commands would run. */
  inside(script: string): string;
  /** Ends the holder: its namespace goes, and the mount with it. Resolves once it has ended. */
  close(): Promise<void>;
}

const MOUNT_SCRIPT = 'mount -t overlay overlay -o "lowerdir=$1,upperdir=$2,workdir=$3,userxattr" "$4" && echo ready && read _';

/** Mounts an overlay of a fresh upper dir over `lower` at a new dir in `root`. */
export async function mountLayer(root: string, lower: string): Promise<MountedLayer> {
  const dir = mkdtempSync(join(root, 'layer-'));
  const [upper, work, target] = ['upper', 'work', 'merged'].map((name) => join(dir, name)) as [string, string, string];
  for (const path of [upper, work, target]) mkdirSync(path);
  const holder = spawn('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', MOUNT_SCRIPT, 'layer', lower, upper, work, target], { stdio: ['pipe', 'pipe', 'pipe'] });
  await ready(holder);
  const pid = holder.pid as number;
  return {
    lower,
    upper,
    target,
    merged: `/proc/${pid}/root${target}`,
    pid,
    inside: (script) => execFileSync('nsenter', [`--target=${pid}`, '--user', '--mount', '--preserve-credentials', 'sh', '-c', `cd "$1" && ${script}`, 'sh', target], { encoding: 'utf8' }),
    close() {
      const ended = holder.exitCode !== null || holder.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => holder.once('exit', () => resolve()));
      holder.stdin?.end();
      holder.kill('SIGKILL');
      return ended;
    },
  };
}

function ready(holder: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    holder.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    holder.stdout?.on('data', (chunk: Buffer) => { if (chunk.toString().includes('ready')) resolve(); });
    holder.on('exit', (code) => reject(new Error(`the overlay could not be mounted (exit ${code}): ${stderr}`)));
  });
}

/**
 * The tree `git add --all` (less the vendor-local files, as commit-all.ts stages) gives in a plain copy of `merged`,
 * staged on an index of `base`: what a worktree without layers would commit.
 */
export function plainTree(repo: string, base: string, merged: string, scratch: string): string {
  const copy = mkdtempSync(join(scratch, 'plain-'));
  try {
    execFileSync('cp', ['-a', `${merged}/.`, copy]);
    rmSync(join(copy, '.git'), { force: true, recursive: true });
    const index = join(copy, '..', `${copy.split('/').pop() ?? 'plain'}.index`);
    const env = { ...process.env, GIT_INDEX_FILE: index, GIT_WORK_TREE: copy, GIT_DIR: join(repo, '.git') };
    const run = (...args: string[]) => execFileSync('git', args, { cwd: copy, env, encoding: 'utf8' }).trim();
    run('read-tree', base);
    run('add', '--all', ...ALL_BUT_LOCAL_FILES);
    const tree = run('write-tree');
    rmSync(index, { force: true });
    return tree;
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** `git diff-tree` of two trees, for a failing comparison to say what differs. */
export function treeDifference(repo: string, a: string, b: string): string {
  return git(repo, 'diff-tree', '-r', '--raw', a, b);
}
