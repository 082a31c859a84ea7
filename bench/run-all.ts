// Runs every benchmark in one go and prints their ratios as a table. By hand only: `npx tsx bench/run-all.ts`.
// Options: --intake-count N (tasks, default 2000), --updates-count N (message chunks, default 100000).
import { formatResult, readCount, runMain, type BenchResult } from './bench-support';
import { benchIntake, DEFAULT_INTAKE_COUNT } from './intake';
import { benchUpdates, DEFAULT_UPDATES_COUNT } from './updates';

function table(results: readonly BenchResult[]): string {
  const rate = (value: number, unit: string) => `${Math.round(value).toLocaleString('en-US')} ${unit}`;
  const rows = [
    ['benchmark', 'desk', 'baseline', 'desk/baseline'],
    ...results.map((r) => [r.name, rate(r.desk, r.unit), rate(r.baseline, r.unit), (r.desk / r.baseline).toFixed(2)]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()).join('\n');
}

runMain(async (argv) => {
  const intakeCount = readCount(argv, '--intake-count', DEFAULT_INTAKE_COUNT);
  const updatesCount = readCount(argv, '--updates-count', DEFAULT_UPDATES_COUNT);
  const results: BenchResult[] = [];
  for (const run of [() => benchIntake(intakeCount), () => benchUpdates(updatesCount)]) {
    const result = await run();
    process.stdout.write(`${formatResult(result)}\n`);
    results.push(result);
  }
  process.stdout.write(`\n${table(results)}\n`);
});
