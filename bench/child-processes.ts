// Child processes of the updates benchmark: the events counter (started, and its reports read in order) and stopping any child.
import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { tsxArgs } from './bench-support';
import type { CounterReport } from './events-counter';

/** stdin and stdout piped; stderr goes to ours. */
export type PipedChild = ChildProcessByStdio<Writable, Readable, null>;

type Report<T extends CounterReport['type']> = Extract<CounterReport, { type: T }>;

export interface EventsCounter {
  child: PipedChild;
  /** The next report, which must be of `type`; a failure or the counter's exit throws. */
  expect<T extends CounterReport['type']>(type: T): Promise<Report<T>>;
}

const COUNTER_SOURCE = resolve(import.meta.dirname, 'events-counter.ts');

export function spawnEventsCounter(url: string, token: string, taskId: string, count: number): EventsCounter {
  const child = spawn(process.execPath, [...tsxArgs(COUNTER_SOURCE), url, token, taskId, String(count)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const queued: CounterReport[] = [];
  const waiters: ((report: CounterReport) => void)[] = [];
  const push = (report: CounterReport): void => {
    const waiter = waiters.shift();
    if (waiter) waiter(report);
    else queued.push(report);
  };
  createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => push(JSON.parse(line) as CounterReport));
  child.once('close', (code) => push({ type: 'failed', message: `the events counter exited (code ${code}) before reporting` }));
  const next = (): Promise<CounterReport> => {
    const report = queued.shift();
    return report ? Promise.resolve(report) : new Promise((resolveReport) => waiters.push(resolveReport));
  };
  return {
    child,
    async expect(type) {
      const report = await next();
      if (report.type === 'failed') throw new Error(report.message);
      if (report.type !== type) throw new Error(`The events counter said ${report.type}, expected ${type}.`);
      return report as Report<typeof type>;
    },
  };
}

/** Closes the child's stdin (the scripted agent ends with its client), then kills it if it lingers. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  child.stdin?.end();
  const kill = setTimeout(() => child.kill('SIGKILL'), 2000);
  await exited;
  clearTimeout(kill);
}
