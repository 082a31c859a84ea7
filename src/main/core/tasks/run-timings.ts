// When each stage of a task's run was reached, kept in memory for the last runs: where a run's time goes, read by the
// pipeline bench and by anyone asking why tasks start slowly. Always on: a clock read and an array write per stage.
import type { EventEnvelope } from '../../../shared/events';
import { FINISHED_STATUSES } from '../../../shared/task';

/**
 * The stages of one run, in the order they are reached (a run that fails early stops marking). `stopped`: the agent's
 * processes ended and its sandbox taken down, before the commit.
 */
export const RUN_STAGES = ['worktree', 'sandbox', 'spawned', 'initialize', 'session', 'first-update', 'turn-ended', 'stopped', 'committed', 'final'] as const;
export type RunStage = (typeof RUN_STAGES)[number];

/** One run: when it started (ms since the epoch, sub-millisecond) and each stage reached, in ms after that start. */
export interface RunTiming {
  taskId: string;
  attempt: number;
  startedAt: number;
  stages: Partial<Record<RunStage, number>>;
}

export interface RunClock {
  /** Notes that the run reached `stage` now; only the first time counts. */
  mark(stage: RunStage): void;
}

export interface RunTimings {
  begin(taskId: string, attempt: number): RunClock;
  /** The latest run of the task still remembered. */
  of(taskId: string): RunTiming | undefined;
}

/** Enough for a bench's or a person's look at the recent runs; older ones are forgotten so memory stays flat. */
const KEPT_RUNS = 1000;

/**
 * `subscribe`: the desk's event bus, whose task events say when a run's row is final (its status finished);
 * `now`: a monotonic clock in epoch milliseconds (default: the performance clock, Node's global: importing
 * node:perf_hooks would load its modules at the desk's start, ~0.8 ms, for a clock first read when a task runs).
 */
export function createRunTimings(
  subscribe: (listener: (envelope: EventEnvelope) => void) => unknown,
  now: () => number = () => performance.timeOrigin + performance.now(),
): RunTimings {
  const runs = new Map<string, RunTiming>();
  const finished: readonly string[] = FINISHED_STATUSES;
  subscribe(({ taskId, event }) => {
    if (event.type !== 'task' || !finished.includes(event.task.status)) return;
    const timing = runs.get(taskId);
    if (timing !== undefined && timing.stages.final === undefined) timing.stages.final = now() - timing.startedAt;
  });
  return {
    begin(taskId, attempt) {
      const timing: RunTiming = { taskId, attempt, startedAt: now(), stages: {} };
      // Re-inserted so the map's order stays oldest first, which is what the trimming below drops.
      runs.delete(taskId);
      runs.set(taskId, timing);
      if (runs.size > KEPT_RUNS) runs.delete(runs.keys().next().value as string);
      return {
        mark(stage) {
          timing.stages[stage] ??= now() - timing.startedAt;
        },
      };
    },
    of: (taskId) => runs.get(taskId),
  };
}

/** Wraps the desk's run so that each run gets its clock (`mark`) as it starts. */
export function timedRun<C extends { task: { id: string; attempt: number }; mark?(stage: RunStage): void }, R>(
  run: (context: C) => Promise<R>,
  timings: RunTimings,
): (context: C) => Promise<R> {
  return (context) => run({ ...context, mark: timings.begin(context.task.id, context.task.attempt).mark });
}
