// How to launch an agent: the registry's entry for one agent id.
import { z } from 'zod';

export const AgentDialect = z.enum(['acp', 'kandev']);
export type AgentDialect = z.infer<typeof AgentDialect>;

export const AgentSpec = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  dialect: AgentDialect.default('acp'),
  /** Names of variables passed through from the desk's environment (e.g. an API key this agent needs). */
  envAllowlist: z.array(z.string()).default([]),
  /** Variables set for this agent only. */
  env: z.record(z.string(), z.string()).default({}),
});
export type AgentSpec = z.infer<typeof AgentSpec>;
