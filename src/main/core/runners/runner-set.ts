// The runners a desk has, keyed by kind: which one a submission gets, whether a task may start on it now
// (capacity), what each holds, and what Settings shows of them.
import { deskError } from '../../../shared/desk-error';
import type { RunnerKind, RunnerState } from '../../../shared/runners';
import type { IsolateRequest, Runner, RunnerIsolation } from './runner';

export const runnerUnavailable = (message: string) => deskError('unavailable', 'runner_unavailable', message);
export const unknownRunner = (kind: string, known: readonly string[]) =>
  deskError('invalid', 'unknown_runner', `Runner "${kind}" is not set up on this desk; it has ${known.join(', ')} (see docs/runners.md).`);

export interface RunnerSet {
  readonly defaultKind: RunnerKind;
  /** The runner a submission asked for, or the default; throws `unknown_runner` for one not set up here. */
  choose(asked: RunnerKind | undefined): RunnerKind;
  /** Whether an agent of this runner is confined (by the sandbox or a container). */
  confines(kind: RunnerKind, agentId: string): boolean;
  /** Why a ready task may not start on `kind` now, given how many tasks already run (or are starting) there. */
  heldBy(kind: RunnerKind, runningThere: number): string | undefined;
  /** The runner's Docker daemon as configured, for whether its tasks may work in a layer (../workspace/layer-choice.ts). */
  daemonHostOf(kind: RunnerKind): string | undefined;
  /** The capacity of every runner but `local` (whose capacity is the desk's concurrency setting). */
  extraCapacity(): number;
  isolate(kind: RunnerKind, request: IsolateRequest): Promise<RunnerIsolation>;
  sweep(): Promise<void>;
  /** Each enabled runner as Settings shows it. */
  states(): Promise<RunnerState[]>;
}

export function createRunnerSet(runners: readonly Runner[], defaultKind: RunnerKind): RunnerSet {
  const byKind = new Map(runners.filter((runner) => runner.enabled).map((runner) => [runner.kind, runner]));
  const running = new Map<RunnerKind, number>();
  const known = () => [...byKind.keys()];
  const get = (kind: RunnerKind): Runner => {
    const runner = byKind.get(kind);
    if (!runner) throw unknownRunner(kind, known());
    return runner;
  };
  get(defaultKind);

  return {
    defaultKind,
    choose: (asked) => get(asked ?? defaultKind).kind,
    confines: (kind, agentId) => byKind.get(kind)?.confines(agentId) ?? false,
    heldBy(kind, runningThere) {
      const runner = byKind.get(kind);
      if (!runner) return `Waiting: runner ${kind} is not set up on this desk.`;
      return runningThere >= runner.capacity ? `Waiting: runner ${kind} runs ${runner.capacity} task${runner.capacity === 1 ? '' : 's'} at once.` : undefined;
    },
    daemonHostOf: (kind) => byKind.get(kind)?.daemonHost,
    extraCapacity: () => [...byKind.values()].filter((runner) => runner.kind !== 'local').reduce((sum, runner) => sum + runner.capacity, 0),
    async isolate(kind, request) {
      const isolation = await get(kind).isolate(request);
      running.set(kind, (running.get(kind) ?? 0) + 1);
      let disposed = false;
      return {
        ...isolation,
        async dispose() {
          if (disposed) return;
          disposed = true;
          running.set(kind, (running.get(kind) ?? 1) - 1);
          await isolation.dispose();
        },
      };
    },
    async sweep() {
      for (const runner of byKind.values()) await runner.sweep();
    },
    states: () => Promise.all([...byKind.values()].map(async (runner) => ({
      kind: runner.kind,
      ...(await runner.state()),
      capacity: runner.capacity,
      running: running.get(runner.kind) ?? 0,
      isDefault: runner.kind === defaultKind,
    }))),
  };
}
