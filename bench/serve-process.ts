// The headless host as a person runs it (`node out/main/serve.js`), and the bare node:http + SQLite server
// (bench/bare-server.mjs), each as a child process: cold start and restart to the first answer, memory,
// `GET /` with many tasks, and an output flood through the scripted agent.
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseLine } from '../src/scripted-agent/script';
import { withCleanup } from './bench-support';
import { fire } from './intake';
import { median } from './worktree';

const ROOT = resolve(import.meta.dirname, '..');
export const SERVE_ENTRY = join(ROOT, 'out', 'main', 'serve.js');
const BARE_ENTRY = join(ROOT, 'bench', 'bare-server.mjs');
/** This checkout's own cache folder for the desks the bench starts (see startServed). */
const BENCH_CACHE_HOME = join(ROOT, 'out', 'bench-cache');
const TOKEN = 'bench-token-0123456789abcdef';

export type Kind = 'desk' | 'bare';

interface Served {
  kind: Kind;
  url: string;
  child: ChildProcess;
  /** From the spawn to the answer of the first `GET /`. */
  firstAnswerMs: number;
  stop(): Promise<void>;
}

/** Starts one of the two servers on `dataDir` and waits for its first `GET /` answer. */
async function startServed(kind: Kind, dataDir: string, repo: string): Promise<Served> {
  const args = kind === 'desk'
    ? [SERVE_ENTRY, '--repo', repo, '--data-dir', dataDir, '--port', '0', '--token', TOKEN]
    : [BARE_ENTRY, dataDir, TOKEN];
  // The desk keeps V8's code for its bundle in the user's cache folder, three builds at most: other checkouts starting
  // their desks meanwhile would push this build's out, and some of its starts would compile from scratch.
  const env = kind === 'desk' ? { ...process.env, XDG_CACHE_HOME: BENCH_CACHE_HOME } : process.env;
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const found = /Listening on (http:\/\/\S+)/.exec(out);
      if (found?.[1]) resolveUrl(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`${kind} exited (${code}) before listening: ${stderr.trim()}`)));
  });
  const first = await get(url, '/');
  if (first.status !== 200) throw new Error(`${kind} answered GET / with ${first.status}`);
  const firstAnswerMs = performance.now() - started;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.kill('SIGTERM');
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(kill);
  };
  return { kind, url, child, firstAnswerMs, stop };
}

/** Runs `use` with a server started on `dataDir`, stopped afterwards whatever happens. */
function withServed<R>(kind: Kind, dataDir: string, repo: string, use: (served: Served) => Promise<R>): Promise<R> {
  return withCleanup(() => startServed(kind, dataDir, repo), (served) => served.stop(), use);
}

interface Answer { status: number; ms: number; etag?: string; text: string }

function get(url: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolveAnswer, reject) => {
    const outgoing = request(`${url}${path}`, { headers: { authorization: `Bearer ${TOKEN}`, ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const etag = response.headers.etag;
        resolveAnswer({ status: response.statusCode ?? 0, ms: performance.now() - started, text: Buffer.concat(chunks).toString('utf8'), ...(etag && { etag }) });
      });
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

function post(url: string, path: string, body: unknown): Promise<number> {
  return new Promise((resolveStatus, reject) => {
    const text = JSON.stringify(body);
    const outgoing = request(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
    }, (response) => {
      response.resume();
      response.on('end', () => resolveStatus(response.statusCode ?? 0));
    });
    outgoing.on('error', reject);
    outgoing.end(text);
  });
}

/** Resident memory of a process in MB (Linux /proc); undefined elsewhere. */
function rssMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const found = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return found?.[1] ? Number(found[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

function dbBytes(dataDir: string): number {
  return ['desk.sqlite', 'desk.sqlite-wal'].reduce((sum, name) => sum + (existsSync(join(dataDir, name)) ? statSync(join(dataDir, name)).size : 0), 0);
}

function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** A temp dir with a one-commit repository, removed afterwards. */
function withWorkspace<R>(use: (dir: string, repo: string) => Promise<R>): Promise<R> {
  return withCleanup(() => mkdtempSync(join(tmpdir(), 'desk-bench-serve-')), (dir) => rmSync(dir, { recursive: true, force: true }), (dir) => {
    const repo = join(dir, 'repo');
    mkdirSync(repo);
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.test', ...args], { cwd: repo, stdio: 'ignore' });
    git('init', '--quiet', '--initial-branch=main');
    git('commit', '--quiet', '--allow-empty', '-m', 'start');
    return use(dir, repo);
  });
}

export interface ColdStartResult { runs: number; deskMs: number; bareMs: number }

/** Median time from spawn to the first `GET /` answer on an empty data dir, desk and bare alternating. */
export function benchColdStart(runs: number): Promise<ColdStartResult> {
  return withWorkspace(async (dir, repo) => {
    const desk: number[] = [];
    const bare: number[] = [];
    for (let run = 0; run < runs + 1; run++) {
      const deskMs = await withServed('desk', join(dir, `desk-${run}`), repo, async (served) => served.firstAnswerMs);
      const bareMs = await withServed('bare', join(dir, `bare-${run}`), repo, async (served) => served.firstAnswerMs);
      // The first pair only warms the file cache.
      if (run > 0) {
        desk.push(deskMs);
        bare.push(bareMs);
      }
    }
    return { runs, deskMs: median(desk), bareMs: median(bare) };
  });
}

export interface ManyTasksResult {
  count: number;
  idleRssMb?: number;
  bareIdleRssMb?: number;
  loadedRssMb?: number;
  listP50Ms: number;
  bareListP50Ms: number;
  /** 'no ETag', or whether a repeated `GET /` with If-None-Match got a 304. */
  etag: 'no ETag' | '304' | 'no 304';
  restartMs: number;
  bareRestartMs: number;
}

/** Idle memory, `count` tasks submitted to both servers, `GET /` times, memory after, and a restart over them. */
export function benchManyTasks(count: number, listRequests: number): Promise<ManyTasksResult> {
  return withWorkspace(async (dir, repo) => {
    const deskDir = join(dir, 'desk');
    const bareDir = join(dir, 'bare');
    const first = await withServed('desk', deskDir, repo, (desk) => withServed('bare', bareDir, repo, async (bare) => {
      await sleep(1000);
      const idleRssMb = rssMb(desk.child.pid);
      const bareIdleRssMb = rssMb(bare.child.pid);
      const failed = (await fire({ url: desk.url, token: TOKEN }, 'task', count)).failed + (await fire({ url: bare.url, token: TOKEN }, 'task', count)).failed;
      if (failed > 0) throw new Error(`${failed} submissions failed`);
      const times = async (served: Served): Promise<number[]> => {
        const ms: number[] = [];
        for (let n = 0; n < listRequests; n++) ms.push((await get(served.url, '/')).ms);
        return ms;
      };
      const listed = JSON.parse((await get(desk.url, '/')).text) as { tasks: unknown[] };
      if (listed.tasks.length !== count) throw new Error(`The desk lists ${listed.tasks.length} tasks, expected ${count}.`);
      const listP50Ms = percentile(await times(desk), 0.5);
      const bareListP50Ms = percentile(await times(bare), 0.5);
      const tagged = await get(desk.url, '/');
      const etag = tagged.etag === undefined ? 'no ETag' as const : (await get(desk.url, '/', { 'if-none-match': tagged.etag })).status === 304 ? '304' as const : 'no 304' as const;
      return { idleRssMb, bareIdleRssMb, loadedRssMb: rssMb(desk.child.pid), listP50Ms, bareListP50Ms, etag };
    }));
    const restartMs = await withServed('desk', deskDir, repo, async (served) => served.firstAnswerMs);
    const bareRestartMs = await withServed('bare', bareDir, repo, async (served) => served.firstAnswerMs);
    return { count, ...first, restartMs, bareRestartMs };
  });
}

export interface FloodResult {
  bytes: number;
  command: string;
  rssGrowthMb?: number;
  listP95Ms: number;
  dbGrowthBytes: number;
  status: string;
  seconds: number;
  /** What the task's stored stream says was dropped (its `output-truncated` marker); undefined: no marker. */
  droppedBytes?: number;
}

/** The scripted agent's command writing about `bytes` of output: `spew` where the agent knows it, else `flood`. */
export function floodCommand(bytes: number): string {
  if ((parseLine('spew 1').kind as string) === 'spew') return `spew ${bytes}`;
  // `flood N` writes N messages of about 12 bytes ("flood 12345\n").
  return `flood ${Math.max(1, Math.round(bytes / 12))}`;
}

/** One task floods its output through the desk while `GET /` is asked every 50 ms. */
export function benchFlood(bytes: number, timeoutMs: number): Promise<FloodResult> {
  return withWorkspace(async (dir, repo) => withServed('desk', join(dir, 'desk'), repo, async (desk) => {
    await sleep(500);
    const rssBefore = rssMb(desk.child.pid);
    const dbBefore = dbBytes(join(dir, 'desk'));
    const command = floodCommand(bytes);
    const started = performance.now();
    const status = await post(desk.url, '/', { id: 'flood', prompt: command });
    if (status !== 202) throw new Error(`The desk refused the flood task: ${status}`);
    const latencies: number[] = [];
    let peakRss = rssBefore ?? 0;
    let end = 'in-progress';
    while (performance.now() - started < timeoutMs) {
      const listed = await get(desk.url, '/');
      latencies.push(listed.ms);
      peakRss = Math.max(peakRss, rssMb(desk.child.pid) ?? 0);
      const task = (JSON.parse(listed.text) as { tasks: { id: string; status: string }[] }).tasks.find((t) => t.id === 'flood');
      if (task && ['completed', 'error', 'cancelled'].includes(task.status)) {
        end = task.status;
        break;
      }
      await sleep(50);
    }
    const seconds = (performance.now() - started) / 1000;
    const droppedBytes = await truncationMarkerOf(desk.url, 'flood');
    return {
      bytes, command, listP95Ms: percentile(latencies, 0.95), dbGrowthBytes: dbBytes(join(dir, 'desk')) - dbBefore, status: end,
      seconds, ...(rssBefore !== undefined && { rssGrowthMb: peakRss - rssBefore }), ...(droppedBytes !== undefined && { droppedBytes }),
    };
  }));
}

/**
 * The most bytes a task's `output-truncated` markers say were dropped, read from its stored events as the board reads
 * them; undefined when it has none.
 */
async function truncationMarkerOf(url: string, id: string): Promise<number | undefined> {
  let dropped: number | undefined;
  for (let after: number | undefined = 0; after !== undefined;) {
    const page = await get(url, `/api/tasks/${id}/events?after=${after}&limit=1000`);
    if (page.status !== 200) throw new Error(`GET /api/tasks/${id}/events answered ${page.status}`);
    const { events, nextAfter }: { events: { event: { type: string; droppedBytes?: number } }[]; nextAfter?: number } = JSON.parse(page.text);
    for (const { event } of events) if (event.type === 'output-truncated') dropped = Math.max(dropped ?? 0, event.droppedBytes ?? 0);
    after = nextAfter;
  }
  return dropped;
}
