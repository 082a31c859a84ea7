// The agents contract: what `GET /api/agents` answers, so a client can offer a choice of agent per task.
import { z } from 'zod';

/** How the desk talks to an agent: standard ACP v1, the Kandev dialect, or decided by the agent's `initialize` answer. */
export const AgentDialect = z.enum(['acp', 'kandev', 'auto']);
export type AgentDialect = z.infer<typeof AgentDialect>;

/** Where an agent entry comes from; a later source overrides an earlier one with the same id. */
export const AgentSource = z.enum(['builtin', 'config', 'ad-hoc']);
export type AgentSource = z.infer<typeof AgentSource>;

/** One agent as a client sees it. Its own variables (`env`) are left out: they may hold secrets. */
export const AgentInfo = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  command: z.string().min(1),
  args: z.array(z.string()),
  dialect: AgentDialect,
  source: AgentSource,
  /** Whether the command was found (on PATH, in a `node_modules/.bin` the desk searches, or as an absolute path). */
  available: z.boolean(),
  /** The program that runs, when it was found. */
  resolvedPath: z.string().optional(),
  /** Why the agent is not available, and how to fix it. */
  reason: z.string().optional(),
  /** Names of the desk's variables this agent receives (its API keys); values are never shown. */
  envAllowlist: z.array(z.string()),
  /** The agent a task gets when its submission names none. */
  isDefault: z.boolean(),
});
export type AgentInfo = z.infer<typeof AgentInfo>;

export const AgentsResponse = z.object({
  agents: z.array(AgentInfo),
  defaultAgent: z.string(),
});
export type AgentsResponse = z.infer<typeof AgentsResponse>;
