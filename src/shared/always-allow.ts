// "Always allow" answers as the board sees them: what a person chose in a task, which the desk keeps for the rest of that
// task, and the request that makes one a rule of the policy.
import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import { AgentId, Capability } from './governance';

/** The audit-log rule of a request approved because a person chose "Always allow" for its capability earlier in the task. */
export const ALWAYS_ALLOWED_RULE = 'always-allowed-in-task';

/** A person chose "Always allow" for a request of `capability` from `agent` in `taskId`: the desk approves that for the rest of the task. */
export const AlwaysAllowAnswer = lazySchema(() => z.object({
  taskId: z.string(),
  agent: z.string(),
  capability: z.string(),
  /** The audit-log request the person answered. */
  requestId: z.string(),
  grantedAt: z.string(),
  /** The policy allows the capability for the agent already (for every task): nothing is left to make a rule. */
  isRule: z.boolean(),
}));
export type AlwaysAllowAnswer = z.infer<typeof AlwaysAllowAnswer>;

/** `GET /api/governance/always-allow` answer, newest first. */
export const AlwaysAllowAnswers = lazySchema(() => z.object({ answers: z.array(AlwaysAllowAnswer) }));
export type AlwaysAllowAnswers = z.infer<typeof AlwaysAllowAnswers>;

/** `POST /api/governance/always-allow/rule` body: the agent's policy allows the capability from now on, in every task. */
export const MakeAlwaysAllowRule = lazySchema(() => z.strictObject({ agent: AgentId, capability: Capability }));
export type MakeAlwaysAllowRule = z.infer<typeof MakeAlwaysAllowRule>;
