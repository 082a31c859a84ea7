// Committing a one-file change: the desk's commitLayer (the tree read from a task's overlay layer over a checkout of the
// base) against `git add -A && git commit` in a plain worktree of the same repository, alternating, at each size given.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { commitLayer, createGitRunner, mountLayer } from '../src/main/core/testing';
import { isMain, runMain, usageError, withCleanup } from './bench-support';
import { median } from './worktree';

export const DEFAULT_LAYER_SIZES = [5_000, 50_000];
export const DEFAULT_LAYER_ROUNDS = 9;
const WARM_UP = 2;
const IDENTITY = { name: 'Bench', email: 'bench@example.test' };

export interface LayerCommitResult { files: number; rounds: number; layerMs: number; gitMs: number }

export async function benchLayerCommit(files: number, rounds: number): Promise<LayerCommitResult> {
  return withCleanup(() => mkdtempSync(join(tmpdir(), 'desk-bench-layer-')), (dir) => rmSync(dir, { recursive: true, force: true }), async (dir) => {
    const repo = join(dir, 'repo');
    makeRepository(repo, files);
    const base = gitSync(repo, 'rev-parse', 'HEAD');
    const plain = join(dir, 'plain');
    gitSync(repo, 'worktree', 'add', '--quiet', '-b', 'raw', plain, base);
    const snapshot = join(dir, 'snapshot');
    gitSync(repo, 'worktree', 'add', '--quiet', '--detach', snapshot, base);
    const ref = 'refs/heads/desk/bench';
    gitSync(repo, 'update-ref', ref, base);
    // A person's repository is not seconds old: the desk trusts a config file's timestamp only after two seconds.
    const configAge = Date.now() - statSync(join(repo, '.git', 'config')).mtimeMs;
    if (configAge < 2500) await sleep(2500 - configAge);
    return withCleanup(() => mountLayer(dir, snapshot), (layer) => layer.close(), async (layer) => {
      const request = {
        git: createGitRunner(),
        repo: { gitDir: join(repo, '.git', 'worktrees', 'snapshot'), commonDir: join(repo, '.git') },
        view: { upperDir: layer.upper, mergedDir: layer.merged },
        baseTree: gitSync(repo, 'rev-parse', `${base}^{tree}`),
        scratchDir: dir,
      };
      const changed = join('dir7', `file${7 + 50 * 3}.ts`);
      const layerTimes: number[] = [];
      const gitTimes: number[] = [];
      for (let round = 0; round < WARM_UP + rounds; round++) {
        const content = `export const changed = ${round};\n`;
        writeFileSync(join(layer.merged, changed), content);
        let started = performance.now();
        const sha = await commitLayer({ ...request, ref, message: `round ${round}`, identity: IDENTITY });
        const layerMs = performance.now() - started;
        if (sha === undefined) throw new Error('commitLayer found no change to commit');

        writeFileSync(join(plain, changed), content);
        started = performance.now();
        await gitAsync(plain, 'add', '-A');
        await gitAsync(plain, '-c', 'user.name=Bench', '-c', 'user.email=bench@example.test', 'commit', '--quiet', '-m', `round ${round}`);
        const gitMs = performance.now() - started;
        if (round >= WARM_UP) {
          layerTimes.push(layerMs);
          gitTimes.push(gitMs);
        }
      }
      return { files, rounds, layerMs: median(layerTimes), gitMs: median(gitTimes) };
    });
  });
}

/** `files` small files in 50 directories, one commit on `main`. */
function makeRepository(repo: string, files: number): void {
  mkdirSync(repo, { recursive: true });
  gitSync(repo, 'init', '--quiet', '--initial-branch=main');
  // No gc starting in the background of either side's commits (nor of the first one, which leaves many loose objects).
  gitSync(repo, 'config', 'gc.auto', '0');
  for (let n = 0; n < files; n++) {
    const sub = join(repo, `dir${n % 50}`);
    if (n < 50) mkdirSync(sub);
    writeFileSync(join(sub, `file${n}.ts`), `export const value${n} = ${n};\n`.repeat(20));
  }
  gitSync(repo, 'add', '--all');
  gitSync(repo, '-c', 'user.name=Bench', '-c', 'user.email=bench@example.test', 'commit', '--quiet', '-m', 'files');
  // Packed, as a person's repository is.
  gitSync(repo, 'gc', '--quiet');
}

function gitSync(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim();
}

function gitAsync(cwd: string, ...args: string[]): Promise<void> {
  return new Promise((resolve, reject) => execFile('git', args, { cwd }, (error) => (error ? reject(error) : resolve())));
}

/** `--files 5000,50000`: the repository sizes to measure. */
function readSizes(argv: readonly string[]): number[] {
  const index = argv.indexOf('--files');
  if (index < 0) return DEFAULT_LAYER_SIZES;
  const sizes = (argv[index + 1] ?? '').split(',').map(Number);
  if (sizes.length === 0 || sizes.some((size) => !Number.isSafeInteger(size) || size < 50)) throw usageError('--files needs sizes of at least 50, separated by commas (e.g. 5000,50000).');
  return sizes;
}

if (isMain(import.meta.url)) {
  runMain(async (argv) => {
    const roundsAt = argv.indexOf('--rounds');
    const rounds = roundsAt < 0 ? DEFAULT_LAYER_ROUNDS : Number(argv[roundsAt + 1]);
    if (!Number.isSafeInteger(rounds) || rounds < 1) throw usageError('--rounds needs a positive whole number.');
    for (const files of readSizes(argv)) {
      const result = await benchLayerCommit(files, rounds);
      process.stdout.write(`layer commit (${result.files.toLocaleString('en-US')} files, one changed, median of ${result.rounds}): commitLayer ${result.layerMs.toFixed(1)} ms, git add -A && git commit ${result.gitMs.toFixed(1)} ms, ratio ${(result.layerMs / result.gitMs).toFixed(3)}\n`);
    }
  });
}
