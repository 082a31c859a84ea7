// Why a ready task may not start yet: its agent's limits (tasks at once, prompts per hour) or its runner's
// capacity. Pure: the task service passes what runs and what was already picked in this round.
import type { RunnerKind } from '../../../shared/runners';

/** Per-agent limits from the governance policy. */
export interface AgentLimits { promptsPerHour?: number; concurrentTasks?: number }

export interface StartLimitFacts {
  /** Runs going on. */
  running: readonly { agent: string; runner: RunnerKind }[];
  /** Tasks picked to start in this round (their prompts are not counted as started yet). */
  picked: readonly { agent: string; runner: RunnerKind }[];
  limits: AgentLimits;
  /** Prompts the agent started in the last hour, before this round. */
  promptsLastHour(): number;
  /** The runner's reason to hold the task, given how many tasks run there. */
  runnerHeld(runner: RunnerKind, runningThere: number): string | undefined;
}

/** The sentence a waiting card shows, or undefined when the task may start now. */
export function heldBack(task: { agent: string; runner: RunnerKind }, facts: StartLimitFacts): string | undefined {
  const { limits } = facts;
  const busy = [...facts.running, ...facts.picked];
  const pickedOfAgent = facts.picked.filter((run) => run.agent === task.agent).length;
  if (limits.concurrentTasks !== undefined && busy.filter((run) => run.agent === task.agent).length >= limits.concurrentTasks) {
    return `Waiting: agent ${task.agent} may run ${limits.concurrentTasks} task${limits.concurrentTasks === 1 ? '' : 's'} at once.`;
  }
  if (limits.promptsPerHour !== undefined) {
    // Tasks picked in this round count as prompts too: they start now.
    if (facts.promptsLastHour() + pickedOfAgent >= limits.promptsPerHour) {
      return `Waiting: agent ${task.agent} reached its limit of ${limits.promptsPerHour} prompts per hour.`;
    }
  }
  return facts.runnerHeld(task.runner, busy.filter((run) => run.runner === task.runner).length);
}

const HOUR_MS = 3_600_000;

type Placed = { agent: string; runner?: RunnerKind };

export interface StartHoldDeps {
  limits(agentId: string): AgentLimits;
  /** Prompts the agent started since the time given (ISO). */
  countStartedSince(agent: string, since: string): number;
  now(): Date;
  running(): Iterable<Placed>;
  runnerHeld?(runner: RunnerKind, runningThere: number): string | undefined;
}

/**
 * `heldBack` over the task service's live state: why `task` may not start now, with `picked` starting this round.
 * `withCapacity: false` leaves the runners' capacity out: waiting for a free place is ordinary queueing, which a
 * task's detail does not report as something holding it (an upload waits for the worktree instead of being refused).
 */
export function createStartHold(deps: StartHoldDeps): (task: Placed, picked?: readonly Placed[], withCapacity?: boolean) => string | undefined {
  const on = (run: Placed) => ({ agent: run.agent, runner: run.runner ?? 'local' });
  return (task, picked = [], withCapacity = true) => heldBack(on(task), {
    running: [...deps.running()].map(on), picked: picked.map(on), limits: deps.limits(task.agent),
    promptsLastHour: () => deps.countStartedSince(task.agent, new Date(deps.now().getTime() - HOUR_MS).toISOString()),
    runnerHeld: (runner, there) => (withCapacity ? deps.runnerHeld?.(runner, there) : undefined),
  });
}
