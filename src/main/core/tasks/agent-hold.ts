// Why a ready task may not start yet although nothing it depends on holds it: its agent's limits from the policy.
import type { TurnsRepo } from '../store/turns-repo';

/** Per-agent limits from the governance policy. */
export interface AgentLimits { promptsPerHour?: number; concurrentTasks?: number }

const HOUR_MS = 3_600_000;

export interface AgentHoldDeps {
  limits?(agentId: string): AgentLimits;
  turns: Pick<TurnsRepo, 'countStartedSince'>;
  now(): Date;
  /** How many tasks of the agent run now. */
  runningOf(agent: string): number;
}

/** Why a ready task of `agent` may not start now (with `alsoStarting` more of its tasks about to), or undefined when it may. */
export function createAgentHold(deps: AgentHoldDeps): (agent: string, alsoStarting?: number) => string | undefined {
  return (agent, alsoStarting = 0) => {
    const limits = deps.limits?.(agent) ?? {};
    const runningOfAgent = deps.runningOf(agent) + alsoStarting;
    if (limits.concurrentTasks !== undefined && runningOfAgent >= limits.concurrentTasks) {
      return `Waiting: agent ${agent} may run ${limits.concurrentTasks} task${limits.concurrentTasks === 1 ? '' : 's'} at once.`;
    }
    if (limits.promptsPerHour !== undefined) {
      const since = new Date(deps.now().getTime() - HOUR_MS).toISOString();
      if (deps.turns.countStartedSince(agent, since) + alsoStarting >= limits.promptsPerHour) {
        return `Waiting: agent ${agent} reached its limit of ${limits.promptsPerHour} prompts per hour.`;
      }
    }
    return undefined;
  };
}
