// Plumbing shared by the hand-run benchmarks: arguments, a time-bounded run that always cleans up, rates and how they print.
import { isolateGitConfig } from '../src/main/core/testing';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DeskError, isDeskError } from '../src/shared/desk-error';

/** One comparison: the desk's rate and the baseline's, in the same unit. */
export interface BenchResult {
  name: string;
  unit: string;
  desk: number;
  baseline: number;
  /** Extra observations worth a line (e.g. how the rate moved during the run). */
  notes: string[];
}

/** A whole run (both benchmarks) gives up after this long, unless `--timeout S` says otherwise. */
export const BENCH_TIMEOUT_MS = 5 * 60_000;
/** How long cleanup may take once the run is over or cut short. */
const CLEANUP_LIMIT_MS = 20_000;

export const usageError = (message: string) => new DeskError('invalid', 'usage', message);

/** Reads `--flag N` or `--flag=N` as a positive whole number; `fallback` when absent. */
export function readCount(argv: readonly string[], flag: string, fallback: number): number {
  const index = argv.findIndex((arg) => arg === flag || arg.startsWith(`${flag}=`));
  if (index < 0) return fallback;
  const arg = argv[index] ?? '';
  const text = arg === flag ? argv[index + 1] : arg.slice(flag.length + 1);
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw usageError(`${flag} needs a positive whole number (got ${text ?? 'nothing'}).`);
  return value;
}

export function perSecond(count: number, elapsedMs: number): number {
  if (!(elapsedMs > 0)) throw new Error(`Too few items (${count}) to time: everything arrived at once. Raise --count.`);
  return count / (elapsedMs / 1000);
}

export function formatResult(result: BenchResult): string {
  const rate = (value: number) => Math.round(value).toLocaleString('en-US');
  const line = `${result.name}: desk ${rate(result.desk)} ${result.unit}, baseline ${rate(result.baseline)} ${result.unit}, ratio ${(result.desk / result.baseline).toFixed(2)}`;
  return [line, ...result.notes.map((note) => `  ${note}`)].join('\n');
}

/** The arguments that run a .ts file in a child Node through tsx, from any working directory. */
export function tsxArgs(entry: string): string[] {
  const packageJson = createRequire(import.meta.url).resolve('tsx/package.json');
  return ['--import', pathToFileURL(join(dirname(packageJson), 'dist', 'loader.mjs')).href, entry];
}

/** true when the module at `moduleUrl` is the script Node was asked to run. */
export function isMain(moduleUrl: string): boolean {
  const script = process.argv[1];
  return script !== undefined && pathToFileURL(resolve(script)).href === moduleUrl;
}

type Close = () => Promise<void> | void;
const pending = new Set<Close>();
/** Set once the run is over: work still running after a timeout must not open anything new. */
let closing = false;

/**
 * Opens a resource, uses it and closes it. Until it is closed it is also on a list that
 * `runMain` empties when the time limit cuts the run short, so nothing outlives the process.
 */
export async function withCleanup<T, R>(open: () => Promise<T> | T, close: (value: T) => Promise<void> | void, use: (value: T) => Promise<R>): Promise<R> {
  if (closing) throw new Error('the run is over');
  const value = await open();
  const entry: Close = () => close(value);
  pending.add(entry);
  try {
    return await use(value);
  } finally {
    if (pending.delete(entry)) await entry();
  }
}

async function closeEverything(): Promise<void> {
  closing = true;
  for (const entry of [...pending].reverse()) {
    pending.delete(entry);
    try {
      await entry();
    } catch (error) {
      process.stderr.write(`bench: cleanup failed: ${messageOf(error)}\n`);
    }
  }
}

/**
 * Runs a benchmark script: git config isolated (commits work without a global identity), a time
 * limit (`--timeout S`, default 300), a clear message and exit code 1 on failure (2 on bad
 * arguments), everything cleaned up.
 */
export function runMain(body: (argv: readonly string[]) => Promise<void>): void {
  const argv = process.argv.slice(2);
  let timeoutMs = BENCH_TIMEOUT_MS;
  try {
    timeoutMs = readCount(argv, '--timeout', BENCH_TIMEOUT_MS / 1000) * 1000;
  } catch (error) {
    process.stderr.write(`bench failed: ${messageOf(error)}\n`);
    process.exit(2);
  }
  const restoreGit = isolateGitConfig();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up after ${timeoutMs / 1000} s (lower the counts or raise --timeout)`)), timeoutMs);
  });
  void Promise.race([body(argv), limit])
    .then(() => 0, (error: unknown) => {
      process.stderr.write(`bench failed: ${messageOf(error)}\n`);
      return isDeskError(error, 'usage') ? 2 : 1;
    })
    .then(async (code) => {
      clearTimeout(timer);
      setTimeout(() => {
        process.stderr.write('bench: cleanup did not finish in time; exiting anyway\n');
        process.exit(1);
      }, CLEANUP_LIMIT_MS).unref();
      await closeEverything();
      restoreGit();
      // Keep-alive sockets and the like would otherwise hold the process open.
      process.exit(code);
    });
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
