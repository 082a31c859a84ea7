// Issue 41's figures: what one task costs on a large repository, against the least git itself does for it, at several
// sizes in one run. Per size, alternating desk and raw rounds: `git worktree add` of the repository (raw) against POST →
// first agent event through the desk (its scripted agent in the sandbox, one task at a time); the disk a task adds
// (`du` of the desk's data dir and the repository's .git, hard links once) against a raw worktree's; the desk's commit
// of a one-file change (its run's `stopped` → `committed`, run-timings.ts) against `git add -A && git commit` in a
// raw worktree. Then the same desk tasks with `.desk/config.json` `"copy": ["node_modules"]` in the checkout. Prints
// each figure with its ratio to raw, the targets of issue 41 and a flatness line across sizes.
// Options: --large (adds 200,000 files: minutes to generate once), --sizes N,N (5000,50000), --rounds R (3), --no-copy,
// --data-parent DIR, --timeout S (default 1800).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Desk, RunStage } from '../src/main/core/testing';
import { isMain, readCount, runMain, usageError, withCleanup } from './bench-support';
import { APP_BUILD_DIR, loadBuiltDesk } from './built-desk';
import { dataParentFrom, describeFileSystem, runRootIn } from './data-place';
import { git, holdBenchCache, layersRepo, type LayersRepo } from './layers-repo';

export const LAYERS_SIZES = [5_000, 50_000] as const;
export const LAYERS_LARGE_SIZE = 200_000;
/** What issue 41 asks, per size (after the first task of a base): ratios to raw and MB beyond what the agent writes. */
export const LAYERS_TARGETS = { firstEventRatio: 0.25, diskMb: 10, commitRatio: 0.1 } as const;

const BUILT_AGENT = resolve(APP_BUILD_DIR, 'scripted-agent.cjs');
/** The run's stages up to the commit, in order (run-timings.ts; the bench's types come from the source, the values from the build). */
const RUN_STAGE_ORDER: readonly RunStage[] = ['worktree', 'sandbox', 'spawned', 'initialize', 'session', 'first-update', 'turn-ended', 'stopped', 'committed'];
const epochNow = () => performance.timeOrigin + performance.now();
const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? Number.NaN : sorted.length % 2 === 1 ? sorted[middle] as number : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

export interface LayersSizeResult {
  files: number;
  trackedMb: number;
  rounds: number;
  /** Medians over the rounds. */
  raw: { addMs: number; diskMb: number; commitMs: number };
  /** The first task of the base (nothing shared yet), and the medians of the tasks after it. */
  desk: { firstTaskEventMs: number; firstEventMs: number; diskMb: number; commitMs: number; steps: Partial<Record<RunStage, number>> };
  copy?: { firstEventMs: number; diskMb: number };
}

const run = (command: string, args: readonly string[], cwd: string): Promise<string> => new Promise((resolveRun, reject) => {
  execFile(command, args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => (error ? reject(new Error(`${command} ${args.slice(0, 3).join(' ')} failed: ${stderr || error.message}`)) : resolveRun(stdout)));
});
const timed = async (work: () => Promise<unknown>): Promise<number> => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};

/** Disk used by `paths` together, in MB: one `du`, so a file hard-linked in two of them counts once. */
async function diskMb(paths: readonly string[]): Promise<number> {
  const output = await run('du', ['-s', '-c', '-k', ...paths.filter((path) => existsSync(path))], '/');
  const total = /^(\d+)\s+total$/m.exec(output)?.[1];
  if (total === undefined) throw new Error(`du printed no total: ${output}`);
  return Number(total) / 1024;
}

/** One task through the desk, alone: ms from just before its POST to its first agent event, and its run's commit stage. */
async function deskTask(desk: Desk, id: string): Promise<{ firstEventMs: number; commitMs: number; steps: Partial<Record<RunStage, number>> }> {
  let firstAt: number | undefined;
  const stop = desk.core.bus.subscribe(({ taskId, event }) => {
    if (taskId === id && event.type === 'agent' && firstAt === undefined) firstAt = epochNow();
  });
  try {
    const postedAt = epochNow();
    const answer = await desk.api('POST', '/', { id, prompt: `write bench-${id}.txt one line from ${id}` });
    if (answer.status !== 202) throw new Error(`The desk refused task ${id}: ${answer.status} ${answer.text}`);
    const status = await desk.waitForStatus(id, ['completed', 'error', 'cancelled'], 600_000);
    const detail = desk.core.tasks.detail(id);
    if (status !== 'completed' || !detail.commit) throw new Error(`Task ${id} ended ${status} without a commit: ${detail.errorMessage ?? 'no error recorded'}`);
    if (firstAt === undefined) throw new Error(`Task ${id} finished without an agent event.`);
    const stages = desk.core.runTimings.of(id)?.stages;
    if (stages?.committed === undefined || stages.stopped === undefined) throw new Error(`Task ${id} has no run timings for its commit.`);
    // Each stage's step from the one before (the run's start for the first), for where the time goes.
    const steps: Partial<Record<RunStage, number>> = {};
    let before = 0;
    for (const stage of RUN_STAGE_ORDER) {
      const at = stages[stage];
      if (at === undefined) continue;
      steps[stage] = at - before;
      before = at;
    }
    return { firstEventMs: firstAt - postedAt, commitMs: stages.committed - stages.stopped, steps };
  } finally {
    stop();
  }
}

/** The raw side of one round: `git worktree add`, its disk, then one new file committed with `git add -A && git commit`. */
async function rawRound(repo: LayersRepo, root: string, round: number): Promise<{ addMs: number; diskMb: number; commitMs: number }> {
  const name = `raw-${round}`;
  const worktree = join(root, 'raw', name);
  const addMs = await timed(() => run('git', ['worktree', 'add', '--quiet', '-b', `bench-raw/${name}`, worktree, 'main'], repo.path));
  const disk = await diskMb([worktree, join(repo.path, '.git', 'worktrees', name)]);
  writeFileSync(join(worktree, `bench-${name}.txt`), `one line from ${name}\n`);
  const identity = ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.test'];
  const commitMs = await timed(async () => {
    await run('git', ['add', '-A'], worktree);
    await run('git', [...identity, 'commit', '--quiet', '--no-verify', '-m', `Raw ${name}`], worktree);
  });
  // Kept until the size is done: on an ext4 without a journal (data-place.ts), files deleted in the last minutes make
  // every new file in their block group cost its maker up to a millisecond, and the desk's next checkout would pay for
  // this worktree's 5,000 files (6.2 s instead of 1.2 s for its first event, when each raw worktree went right away).
  return { addMs, diskMb: disk, commitMs };
}

/** What the bench's runs leave in the cached repository (worktrees, branches, refs), taken out before and after. */
function tidy(repo: string): void {
  git(repo, 'worktree', 'prune');
  const refs = git(repo, 'for-each-ref', '--format=%(refname)').split('\n').filter((ref) => ref !== '' && ref !== 'refs/heads/main');
  for (const ref of refs) git(repo, 'update-ref', '-d', ref);
  rmSync(join(repo, '.desk'), { recursive: true, force: true });
}

type BuiltDesk = Awaited<ReturnType<typeof loadBuiltDesk>>;

export async function benchLayersSize(built: BuiltDesk, repo: LayersRepo, rounds: number, dataParent: string, withCopy: boolean): Promise<LayersSizeResult> {
  tidy(repo.path);
  return withCleanup(() => runRootIn(dataParent, `layers-${repo.files}-`), (root) => { rmSync(root, { recursive: true, force: true }); tidy(repo.path); }, async (root) => {
    mkdirSync(join(root, 'raw'));
    const dataDir = join(root, 'data');
    return withCleanup(
      // The agent as the app ships it (one bundled file run by node), not through tsx; one task at a time. Its launcher
      // checks the worktree's files out before the agent answers `initialize` (git/checkout-first.ts), which at 50,000
      // files on a busy machine took longer than the handshake's 30 s: the bench waits, to measure rather than fail.
      () => built.startDesk({ reuse: { root, repo: repo.path, dataDir }, concurrency: 1, checkAnswers: false, agents: [{ ...built.scriptedAgentSpec(BUILT_AGENT), handshakeTimeoutMs: 600_000 }] }),
      (desk) => desk.close(),
      async (desk) => {
        if (!desk.core.sandbox.available) throw new Error(`The bench measures the sandboxed desk, and bubblewrap is not usable here: ${desk.core.sandbox.reason ?? 'no reason given'}.`);
        const deskDisk = () => diskMb([dataDir, join(repo.path, '.git')]);
        // The first task of a base: nothing is shared with an earlier task yet.
        const first = await deskTask(desk, 'first');
        const raw: { addMs: number; diskMb: number; commitMs: number }[] = [];
        const tasks: { firstEventMs: number; commitMs: number; diskMb: number; steps: Partial<Record<RunStage, number>> }[] = [];
        for (let round = 0; round < rounds; round++) {
          // Alternating which side goes first: a machine that slows down slows both.
          const deskSide = async () => {
            const before = await deskDisk();
            const task = await deskTask(desk, `task-${round}`);
            tasks.push({ ...task, diskMb: (await deskDisk()) - before });
          };
          const rawSide = async () => { raw.push(await rawRound(repo, root, round)); };
          for (const side of round % 2 === 0 ? [rawSide, deskSide] : [deskSide, rawSide]) await side();
        }
        let copy: LayersSizeResult['copy'];
        if (withCopy) {
          mkdirSync(join(repo.path, '.desk'), { recursive: true });
          writeFileSync(join(repo.path, '.desk', 'config.json'), `${JSON.stringify({ copy: ['node_modules'] })}\n`);
          const copied: { firstEventMs: number; diskMb: number }[] = [];
          for (let round = 0; round < rounds; round++) {
            const before = await deskDisk();
            const task = await deskTask(desk, `copy-${round}`);
            copied.push({ firstEventMs: task.firstEventMs, diskMb: (await deskDisk()) - before });
          }
          rmSync(join(repo.path, '.desk'), { recursive: true, force: true });
          copy = { firstEventMs: median(copied.map((task) => task.firstEventMs)), diskMb: median(copied.map((task) => task.diskMb)) };
        }
        return {
          files: repo.files, trackedMb: repo.trackedBytes / 1e6, rounds,
          raw: { addMs: median(raw.map((r) => r.addMs)), diskMb: median(raw.map((r) => r.diskMb)), commitMs: median(raw.map((r) => r.commitMs)) },
          desk: {
            firstTaskEventMs: first.firstEventMs, firstEventMs: median(tasks.map((t) => t.firstEventMs)), diskMb: median(tasks.map((t) => t.diskMb)), commitMs: median(tasks.map((t) => t.commitMs)),
            steps: Object.fromEntries(RUN_STAGE_ORDER.map((stage) => [stage, median(tasks.flatMap((t) => (t.steps[stage] === undefined ? [] : [t.steps[stage] as number])))])),
          },
          ...(copy && { copy }),
        };
      },
    );
  });
}

const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;
const mb = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} MB`;
const times = (value: number) => `${value.toFixed(2)}×`;
const verdict = (pass: boolean) => (pass ? 'PASS' : 'MISS');

export function formatLayersSize(result: LayersSizeResult): string {
  const { raw, desk, copy } = result;
  const firstRatio = desk.firstEventMs / raw.addMs;
  const commitRatio = desk.commitMs / raw.commitMs;
  const lines = [
    `layers, ${result.files.toLocaleString('en-US')} files (${result.trackedMb.toFixed(0)} MB tracked; medians of ${result.rounds}):`,
    `  POST → first agent event   desk ${ms(desk.firstEventMs).padStart(9)} (first task of the base ${ms(desk.firstTaskEventMs)})  raw git worktree add ${ms(raw.addMs).padStart(9)}  ratio ${times(firstRatio)}  target ≤ ${LAYERS_TARGETS.firstEventRatio}× ${verdict(firstRatio <= LAYERS_TARGETS.firstEventRatio)}`,
    `  disk per task              desk ${mb(desk.diskMb).padStart(9)}  raw worktree ${mb(raw.diskMb).padStart(9)}  ratio ${times(desk.diskMb / raw.diskMb)}  target ≤ ${LAYERS_TARGETS.diskMb} MB ${verdict(desk.diskMb <= LAYERS_TARGETS.diskMb)}`,
    `  commit of a one-file change desk ${ms(desk.commitMs).padStart(8)}  raw git add -A && git commit ${ms(raw.commitMs).padStart(9)}  ratio ${times(commitRatio)}  target ≤ ${LAYERS_TARGETS.commitRatio}× ${verdict(commitRatio <= LAYERS_TARGETS.commitRatio)}`,
  ];
  lines.push(`  desk stages (median step, ms): ${RUN_STAGE_ORDER.map((stage) => `${stage} +${Math.round(desk.steps[stage] ?? Number.NaN)}`).join(', ')}`);
  if (copy) lines.push(`  with "copy": ["node_modules"]: first agent event ${ms(copy.firstEventMs)} (ratio ${times(copy.firstEventMs / raw.addMs)}), disk per task ${mb(copy.diskMb)} (target ≤ ${LAYERS_TARGETS.diskMb} MB ${verdict(copy.diskMb <= LAYERS_TARGETS.diskMb)})`);
  return lines.join('\n');
}

/** How each desk figure grows from the smallest size to each larger one (flat is 1.0×), beside how raw git grows. */
export function formatFlatness(results: readonly LayersSizeResult[]): string {
  const [smallest] = results;
  if (smallest === undefined || results.length < 2) return 'flatness: one size only';
  const growth = (pick: (result: LayersSizeResult) => number) => results.slice(1).map((result) => `${times(pick(result) / pick(smallest))} at ${result.files.toLocaleString('en-US')}`).join(', ');
  return [
    `flatness (each figure against ${smallest.files.toLocaleString('en-US')} files; flat is 1.00×):`,
    `  desk first agent event ${growth((r) => r.desk.firstEventMs)}; raw worktree add ${growth((r) => r.raw.addMs)}`,
    `  desk disk per task ${growth((r) => r.desk.diskMb)}; raw ${growth((r) => r.raw.diskMb)}`,
    `  desk commit ${growth((r) => r.desk.commitMs)}; raw ${growth((r) => r.raw.commitMs)}`,
  ].join('\n');
}

function readSizes(argv: readonly string[]): number[] {
  const at = argv.findIndex((arg) => arg === '--sizes' || arg.startsWith('--sizes='));
  const given = at < 0 ? undefined : argv[at]?.includes('=') ? argv[at]?.slice(argv[at].indexOf('=') + 1) : argv[at + 1];
  const sizes = given === undefined ? [...LAYERS_SIZES] : given.split(',').map(Number);
  if (sizes.some((size) => !Number.isSafeInteger(size) || size < 100)) throw usageError(`--sizes needs whole numbers of files of at least 100, with commas between (got ${given ?? 'nothing'}).`);
  if (argv.includes('--large') && !sizes.includes(LAYERS_LARGE_SIZE)) sizes.push(LAYERS_LARGE_SIZE);
  return sizes.sort((a, b) => a - b);
}

/** Every size in turn: the repository from the cache (made on first use), then its rounds. */
export async function benchLayers(sizes: readonly number[], rounds: number, dataParent: string, withCopy: boolean, say: (line: string) => void): Promise<LayersSizeResult[]> {
  if (!existsSync(BUILT_AGENT)) throw new Error(`${BUILT_AGENT} is missing: build the app first (npm run build).`);
  const cacheDir = join(dataParent, 'assignment-desk-bench-cache');
  mkdirSync(cacheDir, { recursive: true });
  // The desk as the app builds it, beside the built agent and sandbox bridge (see built-desk.ts).
  const built = await loadBuiltDesk(APP_BUILD_DIR);
  const results: LayersSizeResult[] = [];
  const release = holdBenchCache(cacheDir);
  try {
    for (const size of sizes) {
      const repo = await layersRepo(cacheDir, size, say);
      const result = await benchLayersSize(built, repo, rounds, dataParent, withCopy);
      say(formatLayersSize(result));
      results.push(result);
    }
  } finally {
    release();
  }
  return results;
}

if (isMain(import.meta.url)) {
  // Generating the large repositories the first time takes minutes: a longer limit than the other benches'.
  if (!process.argv.some((arg) => arg.startsWith('--timeout'))) process.argv.push('--timeout', '1800');
  runMain(async (argv) => {
    const dataParent = dataParentFrom(argv);
    const say = (line: string) => process.stdout.write(`${line}\n`);
    say(describeFileSystem(dataParent));
    const results = await benchLayers(readSizes(argv), readCount(argv, '--rounds', 3), dataParent, !argv.includes('--no-copy'), say);
    say(formatFlatness(results));
  });
}
