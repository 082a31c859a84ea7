// The desk's own CPU per task as people run it: `node out/main/serve.js --agent scripted` in a process of its own, its
// agents in the sandbox, tasks POSTed `concurrency` at a time. The pipeline bench's "desk CPU per task" is read in the
// bench's own process, which also holds tsx's loader thread, vitest (the core's test door imports it) and the HTTP
// client; this reads the app's process alone, from /proc/<pid>/stat (every thread of it, the agents and git not).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { withCleanup } from './bench-support';
import { defaultDataParent, runRootIn } from './data-place';
import { SERVE_ENTRY } from './serve-process';

const TOKEN = 'bench-token-0123456789abcdef';
/** The kernel's clock ticks per second for /proc/<pid>/stat's times (USER_HZ: 100 on every Linux Node runs on). */
const TICKS_PER_SECOND = 100;

/** Which built desk to run (default this tree's out/main/serve.js) and Node options for it (e.g. `--cpu-prof`). */
export interface ServeOptions { entry?: string; nodeArgs?: readonly string[] }

export interface DeskCpuResult { count: number; concurrency: number; userMsPerTask: number; systemMsPerTask: number; rssMb: number }

/** `warm` tasks first, untimed, then `count` timed ones; the desk's CPU over the timed ones divided by `count`. */
export async function benchDeskCpu(count: number, concurrency: number, warm = 16, parent = defaultDataParent(), serve: ServeOptions = {}): Promise<DeskCpuResult> {
  // By default in the home's cache, as an installed desk keeps its data (see pipeline.ts for why not /tmp).
  return withCleanup(() => runRootIn(parent, 'desk-cpu-'), (root) => rmSync(root, { recursive: true, force: true }), async (root) => {
    const repo = join(root, 'repo');
    mkdirSync(repo);
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.test', ...args], { cwd: repo, stdio: 'ignore' });
    git('init', '--quiet', '--initial-branch=main');
    writeFileSync(join(repo, 'README.md'), 'bench\n');
    git('add', 'README.md');
    git('commit', '--quiet', '-m', 'start');
    return withCleanup(() => startDesk(repo, join(root, 'data'), concurrency, serve), stopDesk, async ({ child, url }) => {
      const pid = child.pid as number;
      await runTasks(url, 'warm', warm, concurrency);
      const before = cpuTicks(pid);
      await runTasks(url, 'task', count, concurrency);
      const after = cpuTicks(pid);
      const events = await api(url, 'GET', '/api/tasks/task-0/events?limit=200');
      // A desk that ran its agents unsandboxed would measure another desk.
      if (!JSON.stringify(events.json).includes('Sandboxed (')) throw new Error('The desk did not run its agents in the sandbox: this bench measures the sandboxed pipeline.');
      const perTask = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND / count;
      return { count, concurrency, userMsPerTask: perTask(after.user - before.user), systemMsPerTask: perTask(after.system - before.system), rssMb: rssMb(pid) };
    });
  });
}

async function startDesk(repo: string, dataDir: string, concurrency: number, serve: ServeOptions): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...(serve.nodeArgs ?? []), serve.entry ?? SERVE_ENTRY, '--repo', repo, '--data-dir', dataDir, '--port', '0', '--token', TOKEN, '--agent', 'scripted', '--concurrency', String(concurrency)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const found = /Listening on (http:\/\/\S+)/.exec(out);
      if (found?.[1]) resolveUrl(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`the desk exited (${code}) before listening: ${stderr.trim()}`)));
  });
  return { child, url };
}

async function stopDesk({ child }: { child: ChildProcess }): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  await exited;
}

/** POSTs `count` tasks (16 requests in flight) and waits until every one has finished; throws when one did not complete. */
async function runTasks(url: string, prefix: string, count: number, concurrency: number): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      const answer = await api(url, 'POST', '/', { id: `${prefix}-${index}`, prompt: `write ${prefix}-${index}.txt task ${index}` });
      if (answer.status !== 202) throw new Error(`The desk refused task ${prefix}-${index}: ${answer.status}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(16, count) }, lane));
  // Asked about as often as tasks finish a batch (every 480 ms at 8 at a time): a list of a few hundred tasks costs
  // the desk well under a millisecond, spread over the tasks that finished meanwhile.
  const pollMs = Math.max(100, concurrency * 60);
  for (;;) {
    const listed = (await api(url, 'GET', '/api/tasks')).json as { tasks: { id: string; status: string; errorMessage?: string }[] };
    const mine = listed.tasks.filter((task) => task.id.startsWith(`${prefix}-`));
    const failed = mine.find((task) => task.status === 'error' || task.status === 'cancelled');
    if (failed) throw new Error(`Task ${failed.id} ended ${failed.status}: ${failed.errorMessage ?? 'no error recorded'}`);
    if (mine.length === count && mine.every((task) => task.status === 'completed')) return;
    await sleep(pollMs);
  }
}

async function api(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json().catch(() => undefined) };
}

/** User and system time of every thread of `pid` so far, in clock ticks (fields 14 and 15 of /proc/<pid>/stat). */
function cpuTicks(pid: number): { user: number; system: number } {
  // The command name (field 2) may hold spaces and parentheses: the fields after it start past its last ')'.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]), system: Number(fields[12]) };
}

export function formatDeskCpu(result: DeskCpuResult): string {
  return `desk CPU per task in the app's own process (serve.js, ${result.count} tasks, ${result.concurrency} at a time): ${(result.userMsPerTask + result.systemMsPerTask).toFixed(1)} ms (user ${result.userMsPerTask.toFixed(1)}, system ${result.systemMsPerTask.toFixed(1)}); resident ${result.rssMb.toFixed(0)} MB`;
}

function rssMb(pid: number): number {
  const found = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return found?.[1] ? Number(found[1]) / 1024 : NaN;
}
