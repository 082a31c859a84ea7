// Two builds of the desk side by side: the desk's own CPU per task (desk-cpu.ts) of this tree's out/main/serve.js (A)
// and of another build's (B, `--vs DIR`, a copy of an out/main made from another commit), run in turns A B B A … so a
// machine that others share slows both alike. Prints each run, the medians and A/B per pair.
// Options: --vs DIR (required), --pairs N (5), --count N (120), --concurrency C (8), --prof DIR (A's runs with
// `--cpu-prof` into DIR), --timeout S.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runMain, readCount, usageError } from './bench-support';
import { dataParentFrom } from './data-place';
import { benchDeskCpu, type ServeOptions } from './desk-cpu';
import { SERVE_ENTRY } from './serve-process';

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] as number : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

function readText(argv: readonly string[], flag: string): string | undefined {
  const index = argv.indexOf(flag);
  return index < 0 ? undefined : argv[index + 1];
}

runMain(async (argv) => {
  const other = readText(argv, '--vs');
  if (other === undefined) throw usageError('--vs DIR names the other build\'s out/main (a copy made from another commit).');
  const otherEntry = join(resolve(other), 'serve.js');
  if (!existsSync(otherEntry)) throw usageError(`${otherEntry} is missing: copy an out/main built from the other commit there.`);
  const prof = readText(argv, '--prof');
  const pairs = readCount(argv, '--pairs', 5);
  const count = readCount(argv, '--count', 120);
  const concurrency = readCount(argv, '--concurrency', 8);
  const parent = dataParentFrom(argv);
  const sides: Record<'A' | 'B', ServeOptions> = {
    A: { entry: SERVE_ENTRY, ...(prof !== undefined && { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${resolve(prof)}`] }) },
    B: { entry: otherEntry },
  };
  const runs: Record<'A' | 'B', { cpu: number; wallMs: number }[]> = { A: [], B: [] };
  for (let pair = 0; pair < pairs; pair++) {
    for (const side of (pair % 2 === 0 ? ['A', 'B'] : ['B', 'A']) as ('A' | 'B')[]) {
      const started = performance.now();
      const result = await benchDeskCpu(count, concurrency, 16, parent, sides[side]);
      const run = { cpu: result.userMsPerTask + result.systemMsPerTask, wallMs: performance.now() - started };
      runs[side].push(run);
      process.stdout.write(`pair ${pair + 1} ${side}: ${run.cpu.toFixed(1)} ms desk CPU per task, ${(run.wallMs / 1000).toFixed(1)} s\n`);
    }
  }
  const ratios = runs.A.map((run, index) => run.cpu / (runs.B[index] as { cpu: number }).cpu);
  process.stdout.write(`A (${SERVE_ENTRY}): median ${median(runs.A.map((run) => run.cpu)).toFixed(1)} ms per task; B (${otherEntry}): median ${median(runs.B.map((run) => run.cpu)).toFixed(1)} ms; A/B per pair: median ${median(ratios).toFixed(2)} (${ratios.map((ratio) => ratio.toFixed(2)).join(', ')})\n`);
});
