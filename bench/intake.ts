// Task intake per second: the real desk's `POST /` against a bare node:http + SQLite server, same client, same concurrency.
// Every task waits for a task that is never submitted, so nothing runs: this measures intake only.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { formatResult, isMain, perSecond, readCount, runMain, usageError, withCleanup, type BenchResult } from './bench-support';
import { loadBuiltDesk } from './built-desk';

type BuiltDesk = Awaited<ReturnType<typeof loadBuiltDesk>>;

export const DEFAULT_INTAKE_COUNT = 2000;
const IN_FLIGHT = 16;
/**
 * Submissions each side gets, taking turns, before anything is timed. The client and node:http run in this process
 * for both sides, so whichever side went first used to pay the JIT's warm-up of the shared code as well as its own,
 * and the other side was timed warm: with the desk always first, swapping the order moved the 2,000-task ratio
 * from 0.42 to 0.66 (CPU profiles of both orders). Both sides reach a steady rate after about 1,000 submissions.
 */
const WARM_UP_ROUNDS = 4;
const WARM_UP_PER_ROUND = 250;

export interface Target { url: string; token: string }
interface Timing { elapsedMs: number; failed: number }

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

/** Each side's run is timed in this many parts, taken in turns (see benchIntake). */
const SEGMENTS = 8;

/**
 * Warms both sides up on servers of their own, then times `count` submissions to a fresh desk (so "at 2,000 tasks"
 * means what it says) and to a fresh baseline. Each side's run is cut into SEGMENTS parts timed in turns (desk,
 * baseline, baseline, desk, desk, …): neither side is always first, and a machine that slows down for a moment
 * slows both sides alike instead of whichever ran then.
 */
export async function benchIntake(count: number): Promise<IntakeResult> {
  if (count < SEGMENTS) throw usageError(`Intake needs at least ${SEGMENTS} tasks to time (got ${count}).`);
  const built = await loadBuiltDesk();
  const { startDesk, destroyDesk, TEST_TOKEN } = built;
  await warmUp(built);
  return withCleanup(() => startDesk({ checkAnswers: false }), destroyDesk, (desk) => withCleanup(() => startBaseline(TEST_TOKEN), (b) => b.close(), async (baseline) => {
    const deskTarget: Target = { url: desk.url, token: TEST_TOKEN };
    const sizes = Array.from({ length: SEGMENTS }, (_, i) => Math.floor((count * (i + 1)) / SEGMENTS) - Math.floor((count * i) / SEGMENTS));
    const deskParts: Timing[] = [];
    const baselineParts: Timing[] = [];
    for (const [i, size] of sizes.entries()) {
      const timeDesk = async () => { deskParts.push(await fire(deskTarget, `task-${i}`, size)); };
      const timeBaseline = async () => { baselineParts.push(await fire(baseline, `task-${i}`, size)); };
      if (i % 2 === 0) { await timeDesk(); await timeBaseline(); } else { await timeBaseline(); await timeDesk(); }
    }

    const tasks = desk.core.tasks.list();
    const notQueued = tasks.filter((t) => t.status !== 'queued');
    if (notQueued.length > 0) throw new Error(`${notQueued.length} of the desk's ${tasks.length} tasks are not queued.`);
    const rateOf = (parts: Timing[], from: number, to: number) => {
      const span = parts.slice(from, to);
      return perSecond(sizes.slice(from, to).reduce((sum, n) => sum + n, 0), span.reduce((sum, part) => sum + part.elapsedMs, 0));
    };
    const quarter = SEGMENTS / 4;
    const firstQuarterRate = rateOf(deskParts, 0, quarter);
    const lastQuarterRate = rateOf(deskParts, SEGMENTS - quarter, SEGMENTS);
    const failed = deskParts.reduce((sum, part) => sum + part.failed, 0);
    return {
      name: `intake ${count.toLocaleString('en-US')}`,
      unit: 'tasks/s',
      desk: rateOf(deskParts, 0, SEGMENTS),
      baseline: rateOf(baselineParts, 0, SEGMENTS),
      count, firstQuarterRate, lastQuarterRate, failed, listed: tasks.length, expected: count,
      notes: [
        `desk over the run: first half ${Math.round(rateOf(deskParts, 0, SEGMENTS / 2))} tasks/s, second half ${Math.round(rateOf(deskParts, SEGMENTS / 2, SEGMENTS))} tasks/s`,
        `desk first quarter ${Math.round(firstQuarterRate)} tasks/s, last quarter ${Math.round(lastQuarterRate)} tasks/s (${(lastQuarterRate / firstQuarterRate).toFixed(2)}); ` +
        `${failed} failed submissions; ${tasks.length} of ${count} tasks listed`,
        `both sides warmed up first (${WARM_UP_ROUNDS} turns of ${WARM_UP_PER_ROUND} submissions each, on servers of their own), then timed in ${SEGMENTS} turns each; the desk's code bundled as the app builds it`,
      ],
    };
  }));
}

/** Takes turns submitting to a throwaway desk and a throwaway baseline until the code both use runs at its steady speed. */
async function warmUp({ startDesk, destroyDesk, TEST_TOKEN }: BuiltDesk): Promise<void> {
  await withCleanup(() => startDesk({ checkAnswers: false }), destroyDesk, (desk) => withCleanup(() => startBaseline(TEST_TOKEN), (b) => b.close(), async (baseline) => {
    for (let round = 0; round < WARM_UP_ROUNDS; round++) {
      await fire({ url: desk.url, token: TEST_TOKEN }, `warm-up-${round}`, WARM_UP_PER_ROUND);
      await fire(baseline, `warm-up-${round}`, WARM_UP_PER_ROUND);
    }
  }));
}

/** Sends `count` submissions with at most IN_FLIGHT at a time over keep-alive connections. */
export async function fire(target: Target, prefix: string, count: number): Promise<Timing> {
  return withCleanup(() => new Agent({ keepAlive: true, maxSockets: IN_FLIGHT }), (agent) => agent.destroy(), async (agent) => {
    let next = 0;
    let failed = 0;
    let firstError: unknown;
    const start = performance.now();
    const worker = async (): Promise<void> => {
      while (next < count) {
        const id = `${prefix}-${next++}`;
        await submit(agent, target, JSON.stringify({ id, prompt: `say intake ${id}`, dependencies: ['never'] })).catch((error: unknown) => {
          failed += 1;
          firstError ??= error;
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, count) }, worker));
    // A refused submission is counted; a run where every one failed says why.
    if (failed === count) throw firstError instanceof Error ? firstError : new Error(String(firstError));
    return { elapsedMs: performance.now() - start, failed };
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
async function startBaseline(token: string): Promise<Baseline> {
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
        if (req.headers.authorization !== `Bearer ${token}`) throw new Error('unauthorized');
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
    token,
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
