// Task intake per second: the real desk's `POST /` against a bare node:http + SQLite server, same client, same concurrency.
// Every task waits for a task that is never submitted, so nothing runs: this measures intake only.
import { destroyDesk, startDesk, TEST_TOKEN } from '../src/main/core/testing';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { formatResult, isMain, perSecond, readCount, runMain, withCleanup, type BenchResult } from './bench-support';

export const DEFAULT_INTAKE_COUNT = 2000;
const IN_FLIGHT = 16;
const WARM_UP = 200;

export interface Target { url: string; token: string }
interface Timing { elapsedMs: number; firstHalfMs: number; firstQuarterMs: number; lastQuarterStartMs: number; failed: number }

/** The intake figures the targets name, besides the overall rates. */
export interface IntakeResult extends BenchResult {
  count: number;
  /** The desk's rate over the first and the last quarter of the run. */
  firstQuarterRate: number;
  lastQuarterRate: number;
  /** Submissions the desk did not answer with 202. */
  failed: number;
  /** Tasks the desk lists afterwards, of `expected`. */
  listed: number;
  expected: number;
}

export async function benchIntake(count: number): Promise<IntakeResult> {
  const warmUp = Math.min(WARM_UP, count);
  return withCleanup(() => startDesk({ checkAnswers: false }), destroyDesk, (desk) => withCleanup(startBaseline, (b) => b.close(), async (baseline) => {
    const deskTarget: Target = { url: desk.url, token: TEST_TOKEN };
    await fire(deskTarget, 'warm-up', warmUp);
    await fire(baseline, 'warm-up', warmUp);
    const deskTiming = await fire(deskTarget, 'task', count);
    const baselineTiming = await fire(baseline, 'task', count);

    const tasks = desk.core.tasks.list();
    const notQueued = tasks.filter((t) => t.status !== 'queued');
    if (notQueued.length > 0) throw new Error(`${notQueued.length} of the desk's ${tasks.length} tasks are not queued.`);
    const half = Math.floor(count / 2);
    const quarter = Math.max(1, Math.floor(count / 4));
    const firstQuarterRate = perSecond(quarter, deskTiming.firstQuarterMs);
    const lastQuarterRate = perSecond(quarter, deskTiming.elapsedMs - deskTiming.lastQuarterStartMs);
    return {
      name: `intake ${count.toLocaleString('en-US')}`,
      unit: 'tasks/s',
      desk: perSecond(count, deskTiming.elapsedMs),
      baseline: perSecond(count, baselineTiming.elapsedMs),
      count, firstQuarterRate, lastQuarterRate, failed: deskTiming.failed, listed: tasks.length, expected: count + warmUp,
      notes: [
        ...(half > 0 && count - half > 0 ? [
          `desk over the run: first half ${Math.round(perSecond(half, deskTiming.firstHalfMs))} tasks/s, ` +
          `second half ${Math.round(perSecond(count - half, deskTiming.elapsedMs - deskTiming.firstHalfMs))} tasks/s`,
        ] : []),
        `desk first quarter ${Math.round(firstQuarterRate)} tasks/s, last quarter ${Math.round(lastQuarterRate)} tasks/s (${(lastQuarterRate / firstQuarterRate).toFixed(2)}); ` +
        `${deskTiming.failed} failed submissions; ${tasks.length} of ${count + warmUp} tasks listed`,
      ],
    };
  }));
}

/** Sends `count` submissions with at most IN_FLIGHT at a time over keep-alive connections. */
export async function fire(target: Target, prefix: string, count: number): Promise<Timing> {
  return withCleanup(() => new Agent({ keepAlive: true, maxSockets: IN_FLIGHT }), (agent) => agent.destroy(), async (agent) => {
    let next = 0;
    let done = 0;
    let failed = 0;
    let firstError: unknown;
    const marks = { firstHalfMs: 0, firstQuarterMs: 0, lastQuarterStartMs: 0 };
    const quarter = Math.max(1, Math.floor(count / 4));
    const start = performance.now();
    const worker = async (): Promise<void> => {
      while (next < count) {
        const id = `${prefix}-${next++}`;
        await submit(agent, target, JSON.stringify({ id, prompt: `say intake ${id}`, dependencies: ['never'] })).catch((error: unknown) => {
          failed += 1;
          firstError ??= error;
        });
        done += 1;
        const at = performance.now() - start;
        if (done === Math.floor(count / 2)) marks.firstHalfMs = at;
        if (done === quarter) marks.firstQuarterMs = at;
        if (done === count - quarter) marks.lastQuarterStartMs = at;
      }
    };
    await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, count) }, worker));
    // A refused submission is counted; a run where every one failed says why.
    if (failed === count) throw firstError instanceof Error ? firstError : new Error(String(firstError));
    return { elapsedMs: performance.now() - start, ...marks, failed };
  });
}

function submit(agent: Agent, target: Target, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${target.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    const outgoing = request(`${target.url}/`, { method: 'POST', agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        if (response.statusCode === 202) resolve();
        else reject(new Error(`${target.url} answered ${response.statusCode}: ${Buffer.concat(chunks).toString('utf8')}`));
      });
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

interface Baseline extends Target { close(): Promise<void> }
interface Submission { id: string; prompt: string; dependencies?: string[] }

/**
 * The least a server can honestly do for a submission: check the token, parse the JSON body and
 * INSERT a row into SQLite in WAL mode with the desk's durability (synchronous = NORMAL).
 */
async function startBaseline(): Promise<Baseline> {
  const dir = mkdtempSync(join(tmpdir(), 'desk-bench-intake-'));
  const db = new Database(join(dir, 'baseline.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE tasks (id TEXT PRIMARY KEY, prompt TEXT NOT NULL, dependencies TEXT NOT NULL, submitted_at TEXT NOT NULL)');
  const insert = db.prepare<[string, string, string, string]>('INSERT OR REPLACE INTO tasks (id, prompt, dependencies, submitted_at) VALUES (?, ?, ?, ?)');

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let status = 202;
      let answer: string;
      try {
        if (req.headers.authorization !== `Bearer ${TEST_TOKEN}`) throw new Error('unauthorized');
        const task = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Submission;
        const submittedAt = new Date().toISOString();
        insert.run(task.id, task.prompt, JSON.stringify(task.dependencies ?? []), submittedAt);
        answer = JSON.stringify({ id: task.id, status: 'queued', submittedAt });
      } catch (error) {
        status = 400;
        answer = JSON.stringify({ error: 'bad_request', message: error instanceof Error ? error.message : String(error) });
      }
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
      res.end(answer);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token: TEST_TOKEN,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

if (isMain(import.meta.url)) {
  runMain(async (argv) => {
    process.stdout.write(`${formatResult(await benchIntake(readCount(argv, '--count', DEFAULT_INTAKE_COUNT)))}\n`);
  });
}
