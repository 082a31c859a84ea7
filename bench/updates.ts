// Agent updates per second end to end: the scripted agent's `flood N` through the desk to the events socket,
// against the same agent process read over a bare pipe with JSON.parse.
import { agentEnvironment } from '../src/main/core/index';
import { type Desk, destroyDesk, scriptedAgent, startDesk, TEST_TOKEN } from '../src/main/core/testing';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { formatResult, isMain, perSecond, readCount, runMain, withCleanup, type BenchResult } from './bench-support';
import { spawnEventsCounter, stopChild, type PipedChild } from './child-processes';

export const DEFAULT_UPDATES_COUNT = 100_000;
const WARM_UP = 2000;

/** `elapsedMs` runs from the arrival of the first batch (of `firstBatch` updates) to that of the last. */
interface Flood { count: number; elapsedMs: number; firstBatch: number; startupMs: number }

// The first batch is only the start line of the clock, so it is not counted in the rate.
const rateOf = (flood: Flood): number => perSecond(flood.count - flood.firstBatch, flood.elapsedMs);
const epochNow = (): number => performance.timeOrigin + performance.now();

export async function benchUpdates(count: number): Promise<BenchResult> {
  const warmUp = Math.min(WARM_UP, count);
  const desk = await withCleanup(() => startDesk({ concurrency: 1, checkAnswers: false }), destroyDesk, async (started) => {
    await floodDesk(started, 'warm-up', warmUp);
    return floodDesk(started, 'flood', count);
  });
  await floodPipe(warmUp);
  const baseline = await floodPipe(count);
  return {
    name: 'updates',
    unit: 'updates/s',
    desk: rateOf(desk),
    baseline: rateOf(baseline),
    notes: [
      `desk: first chunk ${Math.round(desk.startupMs)} ms after the POST (worktree, agent start, handshake); pipe: ${Math.round(baseline.startupMs)} ms after the spawn`,
      ...(desk.busy === undefined ? [] : [`desk process busy ${Math.round(desk.busy * 100)}% of one core while the flood passed through it`]),
    ],
  };
}

/** Submits `flood n` to the desk and lets a child process count the chunks on the events socket. */
function floodDesk(desk: Desk, id: string, n: number): Promise<Flood & { busy?: number }> {
  return withCleanup(() => spawnEventsCounter(desk.url, TEST_TOKEN, id, n), (counter) => stopChild(counter.child), async (counter) => {
    await counter.expect('ready');
    const load = watchLoad(desk, id, n);
    const postedAt = epochNow();
    const answer = await desk.api('POST', '/', { id, prompt: `flood ${n}` });
    if (answer.status !== 202) throw new Error(`The desk refused the task: ${answer.status} ${answer.text}`);
    const done = await counter.expect('done');
    const status = await desk.waitForStatus(id, ['completed', 'error', 'cancelled'], 60_000);
    if (status !== 'completed') throw new Error(`Task ${id} ended ${status}: ${desk.core.tasks.detail(id).errorMessage ?? ''}`);
    if (done.count !== n) throw new Error(`The events socket carried ${done.count} chunks for ${id}, expected ${n}.`);
    return { count: done.count, elapsedMs: done.elapsedMs, firstBatch: done.firstBatch, startupMs: done.firstAtEpoch - postedAt, busy: load.stop() };
  });
}

/** The share of one core the desk's process used between the task's first and last agent event on the bus. */
function watchLoad(desk: Desk, id: string, n: number): { stop(): number | undefined } {
  let seen = 0;
  let from: { cpu: NodeJS.CpuUsage; at: number } | undefined;
  let busy: number | undefined;
  const unsubscribe = desk.core.bus.subscribe((envelope) => {
    if (envelope.taskId !== id || envelope.event.type !== 'agent') return;
    seen += 1;
    if (seen === 1) from = { cpu: process.cpuUsage(), at: performance.now() };
    else if (seen === n && from) {
      const used = process.cpuUsage(from.cpu);
      busy = (used.user + used.system) / 1000 / (performance.now() - from.at);
    }
  });
  return { stop: () => { unsubscribe(); return busy; } };
}

/** Starts the scripted agent as the desk would, speaks ACP over its stdio and counts `session/update` lines. */
function floodPipe(n: number): Promise<Flood> {
  const spec = scriptedAgent();
  return withCleanup(() => mkdtempSync(join(tmpdir(), 'desk-bench-updates-')), (dir) => rmSync(dir, { recursive: true, force: true }), (dir) => {
    const spawnedAt = epochNow();
    const agent = () => spawn(spec.command, spec.args, { cwd: dir, env: agentEnvironment(process.env, spec), stdio: ['pipe', 'pipe', 'inherit'] });
    return withCleanup(agent, stopChild, (child) => speakAcp(child, dir, n, spawnedAt));
  });
}

interface RpcMessage { id?: number; method?: string; result?: unknown; error?: { message?: string } }

async function speakAcp(child: PipedChild, cwd: string, n: number, spawnedAt: number): Promise<Flood> {
  const waiting = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();
  let failure: Error | undefined;
  const fail = (error: Error): void => {
    failure ??= error;
    for (const waiter of waiting.values()) waiter.reject(error);
    waiting.clear();
  };
  let nextId = 1;
  const request = (method: string, params: unknown): Promise<unknown> => new Promise((resolveAnswer, reject) => {
    if (failure) return reject(failure);
    const id = nextId++;
    waiting.set(id, { resolve: resolveAnswer, reject });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  });

  let count = 0;
  let firstAt: number | undefined;
  let firstAtEpoch = 0;
  let firstBatch = 0;
  let lastAt = 0;
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    let seen = 0;
    let start = 0;
    try {
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n', start)) {
        const message = JSON.parse(pending.slice(start, end)) as RpcMessage;
        start = end + 1;
        if (message.method === 'session/update') seen += 1;
        else if (message.id !== undefined && message.method === undefined) answer(message);
      }
    } catch (error) {
      fail(new Error(`The scripted agent wrote a line that is not JSON: ${error instanceof Error ? error.message : String(error)}`));
    }
    pending = pending.slice(start);
    if (seen === 0) return;
    const now = performance.now();
    if (firstAt === undefined) {
      firstAt = now;
      firstAtEpoch = epochNow();
      firstBatch = seen;
    }
    count += seen;
    lastAt = now;
  });
  function answer(message: RpcMessage): void {
    const waiter = waiting.get(message.id as number);
    waiting.delete(message.id as number);
    if (message.error) waiter?.reject(new Error(`The scripted agent answered with an error: ${message.error.message ?? 'unknown'}`));
    else waiter?.resolve(message.result);
  }
  child.once('close', (code, signal) => fail(new Error(`The scripted agent exited (${signal ?? `code ${code}`}) after ${count} updates.`)));

  await request('initialize', { protocolVersion: 1, clientCapabilities: {} });
  const session = (await request('session/new', { cwd, mcpServers: [] })) as { sessionId?: unknown };
  if (typeof session.sessionId !== 'string') throw new Error('The scripted agent gave no session id.');
  const turn = (await request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: `flood ${n}` }] })) as { stopReason?: unknown };
  if (turn.stopReason !== 'end_turn') throw new Error(`The flood ended with stop reason ${String(turn.stopReason)}.`);
  // The answer to the prompt follows the last update on the same pipe, so the count is final here.
  if (count !== n || firstAt === undefined) throw new Error(`The pipe carried ${count} updates, expected ${n}.`);
  return { count, elapsedMs: lastAt - firstAt, firstBatch, startupMs: firstAtEpoch - spawnedAt };
}

if (isMain(import.meta.url)) {
  runMain(async (argv) => {
    process.stdout.write(`${formatResult(await benchUpdates(readCount(argv, '--count', DEFAULT_UPDATES_COUNT)))}\n`);
  });
}
