// The agent pipeline end to end: tasks POSTed to a desk whose scripted agent writes one file each in the bubblewrap
// sandbox, then committed, against the same work done by hand (pipeline-baseline.ts) at the same concurrency.
// Prints ms/task both sides and their ratio, POST → first agent event on an idle desk, the desk's CPU per task and
// where a run's time goes, stage by stage (the desk's own run timings, src/main/core/tasks/run-timings.ts).
// Options: --count N (120), --concurrency C (8), --first-event-runs N (7), --rounds R (4 per side, alternating),
// --smoke (small counts; it fails only when the pipeline does not run), --timeout S.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { RUN_STAGES, type Desk, type RunStage } from '../src/main/core/testing';
import type { EventEnvelope } from '../src/shared/events';
import { isMain, readCount, runMain, usageError, withCleanup } from './bench-support';
import { APP_BUILD_DIR, loadBuiltDesk } from './built-desk';
import { benchDeskCpu, formatDeskCpu } from './desk-cpu';
import { dataParentFrom, defaultDataParent, describeFileSystem, runRootIn } from './data-place';
import { baselineRepo, inParallel, taskFile } from './pipeline-baseline';

export interface PipelineResult {
  count: number;
  concurrency: number;
  deskMsPerTask: number;
  baselineMsPerTask: number;
  /** Median of the idle-desk runs, and every run. */
  firstEventMs: number;
  firstEventRuns: number[];
  cpuMsPerTask: number;
  /** The machine's busy CPU per task during each side's rounds (every process: agents, git, bubblewrap, the kernel's work). */
  allCpuMsPerTask: { desk: number; baseline: number };
  /** Per stage: the median time from the stage before (the run's start for the first), and the median time it was reached. */
  stages: { stage: RunStage; stepMs: number; reachedMs: number }[];
  /** The same for the idle desk's runs (one task at a time): where the first event's latency goes. */
  idleStages: { stage: RunStage; stepMs: number; reachedMs: number }[];
  /** From the POST's answer to the run's start, median: time queued behind the concurrency limit. */
  queuedMs: number;
}

/** What the issue asks of the pipeline on the 2-core machine. */
export const PIPELINE_TARGETS = { ratio: 0.7, firstEventMs: 120, cpuMsPerTask: 25 } as const;

const BUILT_AGENT = resolve(APP_BUILD_DIR, 'scripted-agent.cjs');
const epochNow = () => performance.timeOrigin + performance.now();
/**
 * The whole machine's busy CPU time so far (every core, user and system, from /proc/stat), in ms. Children that
 * bubblewrap reaps inside its PID namespace never reach this process's own child counters, so the machine's figure
 * is the one that holds every process a task costs; it also holds whatever else runs (quote it from a quiet machine).
 */
function machineBusyMs(): number {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal …: all but idle and iowait is work.
  const busy = fields.slice(0, 8).reduce((sum, value, index) => (index === 3 || index === 4 ? sum : sum + value), 0);
  return busy * (1000 / CLOCK_TICKS_PER_SECOND);
}
/** sysconf(_SC_CLK_TCK): 100 on every Linux Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;
const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? Number.NaN : sorted.length % 2 === 1 ? sorted[middle] as number : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/**
 * `count` tasks on each side, `concurrency` at a time, in `rounds` rounds per side taken in the order desk, baseline,
 * baseline, desk, …: a machine that slows down (others share it) slows both sides, and neither is always first.
 */
export async function benchPipeline(count: number, concurrency: number, firstEventRuns: number, rounds = 4, dataParent = defaultDataParent()): Promise<PipelineResult> {
  return inDataPlace(dataParent, () => benchPipelineHere(count, concurrency, firstEventRuns, rounds));
}

/**
 * Runs `bench` with both sides' repositories and the desk's data dir under `parent`, by default the home's cache, where
 * an installed desk keeps its data (the home), not in /tmp: a sandbox's /tmp is its task's own temp dir, so bubblewrap
 * makes a mount point in that temp dir (on disk) for every place under /tmp the task sees, which no installed desk
 * pays. Both sides move. The run's folder is placed by runRootIn, away from the files earlier runs deleted.
 */
async function inDataPlace<T>(parent: string, bench: () => Promise<T>): Promise<T> {
  const root = runRootIn(parent, 'pipeline-');
  const before = process.env.TMPDIR;
  process.env.TMPDIR = root;
  try {
    return await bench();
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(root, { recursive: true, force: true });
  }
}

async function benchPipelineHere(count: number, concurrency: number, firstEventRuns: number, rounds: number): Promise<PipelineResult> {
  // The agent as the app ships it (one bundled file run by node), like the baseline's node: not through tsx.
  if (!existsSync(BUILT_AGENT)) throw new Error(`${BUILT_AGENT} is missing: build the app first (npm run build).`);
  if (count % rounds !== 0) throw usageError(`--count (${count}) must split into ${rounds} equal rounds.`);
  const perRound = count / rounds;
  // The desk as the app builds it, beside the built agent and sandbox bridge (which it then runs as the app does,
  // not through tsx): see built-desk.ts.
  const { startDesk, destroyDesk, scriptedAgentSpec } = await loadBuiltDesk(APP_BUILD_DIR);
  return withCleanup(
    () => startDesk({ concurrency, checkAnswers: false, agents: [scriptedAgentSpec(BUILT_AGENT)] }),
    destroyDesk,
    (desk) => {
      if (!desk.core.sandbox.available) throw new Error(`The bench measures the sandboxed pipeline, and bubblewrap is not usable here: ${desk.core.sandbox.reason ?? 'no reason given'}.`);
      return withCleanup(() => baselineRepo(desk.core.sandbox.path ?? 'bwrap'), (raw) => raw.close(), async (raw) => {
        const finished = watchFinished(desk);
        try {
          // Warm the desk's code, the agent's files and git's on both sides; these tasks are not counted.
          await postAll(desk, 'warm', 0, concurrency, finished);
          await inParallel(concurrency, concurrency, (index) => raw.doTask(count + index));
          const firstEvents: number[] = [];
          for (let run = 0; run < firstEventRuns; run++) firstEvents.push(await firstEventLatency(desk, `idle-${run}`, finished));
          let deskMs = 0;
          let rawMs = 0;
          let cpuMs = 0;
          const treeMs = { desk: 0, raw: 0 };
          const answeredAt = new Map<string, number>();
          const done = { desk: 0, raw: 0 };
          for (let turn = 0; turn < 2 * rounds; turn++) {
            const deskTurn = turn % 4 === 0 || turn % 4 === 3;
            const first = (deskTurn ? done.desk++ : done.raw++) * perRound;
            const started = performance.now();
            const treeBefore = machineBusyMs();
            if (deskTurn) {
              const cpuBefore = process.cpuUsage();
              for (const [id, at] of await postAll(desk, 'task', first, perRound, finished)) answeredAt.set(id, at);
              const cpu = process.cpuUsage(cpuBefore);
              cpuMs += (cpu.user + cpu.system) / 1000;
              deskMs += performance.now() - started;
            } else {
              await inParallel(perRound, concurrency, (index) => raw.doTask(first + index));
              rawMs += performance.now() - started;
            }
            treeMs[deskTurn ? 'desk' : 'raw'] += machineBusyMs() - treeBefore;
          }
          await assertCommitted(desk, 'task', count);
          return {
            count, concurrency, deskMsPerTask: deskMs / count, baselineMsPerTask: rawMs / count,
            firstEventMs: median(firstEvents), firstEventRuns: firstEvents, cpuMsPerTask: cpuMs / count,
            allCpuMsPerTask: { desk: treeMs.desk / count, baseline: treeMs.raw / count },
            ...breakdown(desk, 'task', count, answeredAt),
            idleStages: breakdown(desk, 'idle', firstEventRuns, new Map()).stages,
          };
        } finally {
          finished.stop();
        }
      });
    },
  );
}

const promptOf = (index: number) => {
  const file = taskFile(index);
  return `write ${file.path} ${file.text}`;
};

interface Finished { wait(id: string): Promise<void>; stop(): void }

/** Resolves a task's wait once the bus says it finished (completed, error, cancelled). */
function watchFinished(desk: Desk): Finished {
  const done = new Set<string>();
  const waiters = new Map<string, () => void>();
  const stop = desk.core.bus.subscribe(({ taskId, event }: EventEnvelope) => {
    if (event.type !== 'task' || !['completed', 'error', 'cancelled'].includes(event.task.status)) return;
    done.add(taskId);
    waiters.get(taskId)?.();
  });
  return {
    wait: (id) => (done.has(id) ? Promise.resolve() : new Promise((resolveWait) => waiters.set(id, resolveWait))),
    stop,
  };
}

/** POSTs tasks `first`…`first + count - 1` (16 requests in flight) and waits until all have finished; returns when each POST was answered. */
async function postAll(desk: Desk, prefix: string, first: number, count: number, finished: Finished): Promise<Map<string, number>> {
  const answeredAt = new Map<string, number>();
  await inParallel(count, 16, async (offset) => {
    const id = `${prefix}-${first + offset}`;
    const answer = await desk.api('POST', '/', { id, prompt: promptOf(first + offset) });
    if (answer.status !== 202) throw new Error(`The desk refused task ${id}: ${answer.status} ${answer.text}`);
    answeredAt.set(id, epochNow());
  });
  for (let offset = 0; offset < count; offset++) await finished.wait(`${prefix}-${first + offset}`);
  return answeredAt;
}

/** One task on an idle desk: ms from just before its POST to the first agent event on the desk's bus. */
async function firstEventLatency(desk: Desk, id: string, finished: Finished): Promise<number> {
  let firstAt: number | undefined;
  const seen = new Promise<void>((resolveSeen) => {
    const stop = desk.core.bus.subscribe(({ taskId, event }) => {
      if (taskId !== id || event.type !== 'agent') return;
      firstAt = epochNow();
      stop();
      resolveSeen();
    });
  });
  const postedAt = epochNow();
  const answer = await desk.api('POST', '/', { id, prompt: promptOf(0) });
  if (answer.status !== 202) throw new Error(`The desk refused task ${id}: ${answer.status} ${answer.text}`);
  await Promise.race([seen, finished.wait(id)]);
  await finished.wait(id);
  if (firstAt === undefined) throw new Error(`Task ${id} finished without an agent event: ${desk.core.tasks.detail(id).errorMessage ?? 'no error recorded'}`);
  return firstAt - postedAt;
}

/** Every task completed with a commit holding its file: a bench of failing tasks would measure nothing. */
async function assertCommitted(desk: Desk, prefix: string, count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const detail = desk.core.tasks.detail(`${prefix}-${index}`);
    if (detail.status !== 'completed' || !detail.commit) throw new Error(`Task ${prefix}-${index} ended ${detail.status} without a commit: ${detail.errorMessage ?? 'no error recorded'}`);
  }
  const last = desk.core.tasks.detail(`${prefix}-${count - 1}`);
  const files = await desk.core.git.diff(last.baseCommit ?? '', last.commit ?? '');
  if (!JSON.stringify(files).includes(taskFile(count - 1).path)) throw new Error(`The last task's commit does not hold ${taskFile(count - 1).path}.`);
}

function breakdown(desk: Desk, prefix: string, count: number, answeredAt: Map<string, number>): Pick<PipelineResult, 'stages' | 'queuedMs'> {
  const timings = Array.from({ length: count }, (_, index) => desk.core.runTimings.of(`${prefix}-${index}`));
  const stages = RUN_STAGES.map((stage, position) => {
    const steps: number[] = [];
    const reached: number[] = [];
    for (const timing of timings) {
      const at = timing?.stages[stage];
      if (at === undefined) continue;
      const before = position === 0 ? 0 : timing?.stages[RUN_STAGES[position - 1] as RunStage];
      reached.push(at);
      if (before !== undefined) steps.push(at - before);
    }
    return { stage, stepMs: median(steps), reachedMs: median(reached) };
  });
  const queued = timings.flatMap((timing) => {
    const answered = timing && answeredAt.get(timing.taskId);
    return timing && answered !== undefined ? [Math.max(0, timing.startedAt - answered)] : [];
  });
  return { stages, queuedMs: median(queued) };
}

const STAGE_NAMES: Record<RunStage, string> = {
  worktree: 'worktree prepared', sandbox: 'sandbox up', spawned: 'agent spawned', initialize: 'initialize answered',
  session: 'session/new answered', 'first-update': 'first update', 'turn-ended': 'turn ended', stopped: 'agent and sandbox ended',
  committed: 'commit made', final: 'task row final',
};

const ms = (value: number) => `${value.toFixed(1)} ms`;
const stageLines = (stages: PipelineResult['stages']) => stages.map(({ stage, stepMs, reachedMs }) => `    ${STAGE_NAMES[stage].padEnd(26)} +${ms(stepMs).padStart(9)}  ${ms(reachedMs).padStart(9)}`);

export function formatPipeline(result: PipelineResult): string {
  const lines = [
    `pipeline (${result.count} tasks, ${result.concurrency} at a time): desk ${ms(result.deskMsPerTask)}/task, baseline ${ms(result.baselineMsPerTask)}/task, ratio ${(result.baselineMsPerTask / result.deskMsPerTask).toFixed(2)}`,
    `  POST → first agent event, idle desk: median ${ms(result.firstEventMs)} of ${result.firstEventRuns.length} (${result.firstEventRuns.map((value) => value.toFixed(0)).join(', ')})`,
    `  machine CPU per task (every process): desk ${ms(result.allCpuMsPerTask.desk)}, baseline ${ms(result.allCpuMsPerTask.baseline)}`,
    `  desk CPU per task: ${ms(result.cpuMsPerTask)}; queued behind the limit: median ${ms(result.queuedMs)}`,
    '  stage (median step / median reached since the run started):',
    ...stageLines(result.stages),
    '  the same on the idle desk (one task at a time):',
    ...stageLines(result.idleStages),
  ];
  return lines.join('\n');
}

if (isMain(import.meta.url)) {
  runMain(async (argv) => {
    const smoke = argv.includes('--smoke');
    const dataParent = dataParentFrom(argv);
    process.stdout.write(`${describeFileSystem(dataParent)}\n`);
    const count = readCount(argv, '--count', smoke ? 8 : 120);
    const result = await benchPipeline(
      count,
      readCount(argv, '--concurrency', smoke ? 2 : 8),
      readCount(argv, '--first-event-runs', smoke ? 5 : 7),
      readCount(argv, '--rounds', smoke ? 2 : 4),
      dataParent,
    );
    process.stdout.write(`${formatPipeline(result)}\n`);
    process.stdout.write(`${formatDeskCpu(await benchDeskCpu(count, readCount(argv, '--concurrency', smoke ? 2 : 8), 16, dataParent))}\n`);
    if (smoke) process.stdout.write('smoke run (--smoke): small counts, the figures say only that the pipeline runs end to end\n');
  });
}
