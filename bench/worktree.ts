// Worktree preparation: the desk's prepareWorktree (no dependencies) against a bare `git worktree add -b`
// on the same 2,000-file repository, alternating, each removed again outside the clock.
import { createGitService } from '../src/main/core/index';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { isMain, readCount, runMain, withCleanup } from './bench-support';

export const DEFAULT_WORKTREE_FILES = 2000;
export const DEFAULT_WORKTREE_ROUNDS = 15;
const WARM_UP = 2;

export interface WorktreeResult { files: number; rounds: number; deskMs: number; gitMs: number }

export async function benchWorktree(files: number, rounds: number): Promise<WorktreeResult> {
  return withCleanup(() => mkdtempSync(join(tmpdir(), 'desk-bench-worktree-')), (dir) => rmSync(dir, { recursive: true, force: true }), async (dir) => {
    const repo = join(dir, 'repo');
    makeRepository(repo, files);
    // A person's repository is not seconds old: the desk trusts a config file's timestamp only after two seconds.
    const configAge = Date.now() - statSync(join(repo, '.git', 'config')).mtimeMs;
    if (configAge < 2500) await sleep(2500 - configAge);
    const service = createGitService({
      repoRoot: repo, worktreesDir: join(dir, 'desk-worktrees'), hooksDir: join(dir, 'hooks'), stateDir: join(dir, 'state'), deskId: 'bench',
    });
    const base = gitSync(repo, 'rev-parse', 'HEAD');
    mkdirSync(join(dir, 'raw'));
    const desk: number[] = [];
    const raw: number[] = [];
    for (let round = 0; round < WARM_UP + rounds; round++) {
      const id = `wt-${round}`;
      let started = performance.now();
      await service.prepareWorktree({ taskId: id, baseBranch: 'main', dependencyBranches: [] });
      const deskMs = performance.now() - started;
      await service.retire(id);

      const path = join(dir, 'raw', id);
      started = performance.now();
      await gitAsync(repo, 'worktree', 'add', '--quiet', '-b', `raw/${id}`, path, base);
      const gitMs = performance.now() - started;
      await gitAsync(repo, 'worktree', 'remove', '--force', path);
      await gitAsync(repo, 'branch', '-D', `raw/${id}`);
      if (round >= WARM_UP) {
        desk.push(deskMs);
        raw.push(gitMs);
      }
    }
    return { files, rounds, deskMs: median(desk), gitMs: median(raw) };
  });
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] ?? NaN : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

/** `files` small files in 50 directories, one commit on `main`. */
function makeRepository(repo: string, files: number): void {
  mkdirSync(repo, { recursive: true });
  gitSync(repo, 'init', '--quiet', '--initial-branch=main');
  for (let n = 0; n < files; n++) {
    const sub = join(repo, `dir${n % 50}`);
    if (n < 50) mkdirSync(sub);
    writeFileSync(join(sub, `file${n}.ts`), `export const value${n} = ${n};\n`.repeat(20));
  }
  gitSync(repo, 'add', '--all');
  gitSync(repo, '-c', 'user.name=Bench', '-c', 'user.email=bench@example.test', 'commit', '--quiet', '-m', 'files');
}

function gitSync(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

function gitAsync(cwd: string, ...args: string[]): Promise<void> {
  return new Promise((resolve, reject) => execFile('git', args, { cwd }, (error) => (error ? reject(error) : resolve())));
}

if (isMain(import.meta.url)) {
  runMain(async (argv) => {
    const result = await benchWorktree(readCount(argv, '--files', DEFAULT_WORKTREE_FILES), readCount(argv, '--rounds', DEFAULT_WORKTREE_ROUNDS));
    process.stdout.write(`worktree (${result.files} files, median of ${result.rounds}): desk prepareWorktree ${result.deskMs.toFixed(1)} ms, git worktree add ${result.gitMs.toFixed(1)} ms, ratio ${(result.deskMs / result.gitMs).toFixed(2)}\n`);
  });
}
