// How to launch an agent: the registry's entry for one agent id.
import { z } from 'zod';
import { AgentDialect } from '../../../shared/agents';
import { GrantedPath, HostPattern } from '../../../shared/sandbox';

export { AgentDialect };

export const AgentSpec = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  /** `auto`: the ACP client tells the dialects apart by the agent's answer to `initialize`. */
  dialect: AgentDialect.default('acp'),
  /** Names of variables passed through from the desk's environment (e.g. an API key this agent needs). */
  envAllowlist: z.array(z.string()).default([]),
  /** Variables set for this agent only. */
  env: z.record(z.string(), z.string()).default({}),
  /** The ACP auth method to `authenticate` with when the agent offers it (e.g. "gemini-api-key"). */
  authMethod: z.string().min(1).optional(),
  /**
   * Where the agent keeps its own state (login cache, settings, sessions), absolute or `~/…`: the only
   * places besides the task's worktree and temp dir that it may write inside the sandbox.
   */
  stateDirs: z.array(GrantedPath).optional(),
  /**
   * State kept in files outside those dirs (Claude's `~/.claude.json`), absolute or `~/…`: writable in the
   * sandbox, where the agent may replace them (temp file and rename), and copied back when the task ends.
   */
  stateFiles: z.array(GrantedPath).optional(),
  /** The service hosts the agent talks to; inside the sandbox it reaches these and nothing else. */
  networkHosts: z.array(HostPattern).optional(),
  /** What the desk's Install gives npm for this agent (a package spec or a tarball path). */
  npmPackage: z.string().min(1).optional(),
});
export type AgentSpec = z.infer<typeof AgentSpec>;
