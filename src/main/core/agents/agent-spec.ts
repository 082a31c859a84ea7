// How to launch an agent: the registry's entry for one agent id.
import { z } from 'zod';
import { lazySchema } from '../../../shared/lazy-schema';
import { AgentDialect } from '../../../shared/agents';
import { GrantedPath, HostPattern } from '../../../shared/sandbox';

export { AgentDialect };

/** Which of ACP's `fs/*` methods the desk offers an agent. */
export const FileMethods = lazySchema(() => z.object({ readTextFile: z.boolean(), writeTextFile: z.boolean() }).strict());

export const AgentSpec = lazySchema(() => z.object({
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
   * The ACP file methods the desk offers this agent; default: both. An agent that takes every error from
   * `fs/read_text_file` for an unreadable file (Gemini CLI) reads the worktree itself, inside the sandbox.
   */
  fileMethods: FileMethods.optional(),
  /**
   * Where the agent keeps its own state (login cache, settings, sessions), absolute or `~/…`: the only
   * places besides the task's worktree and temp dir that it may write inside the sandbox.
   */
  stateDirs: z.array(GrantedPath).optional(),
  /**
   * State kept in files outside those dirs (Claude's `~/.claude.json`), absolute or `~/…`: writable in the
   * sandbox, where the agent may replace them (temp file and rename); the task's changes stay in its own layer.
   */
  stateFiles: z.array(GrantedPath).optional(),
  /**
   * What a login needs, inside a state dir or among the state files (Claude's `~/.claude/.credentials.json`): the only
   * state a task hands back to the person's home (a refreshed token). Everything else a task writes to its state stays
   * in the task's own layer (../sandbox/state-layers.ts), never settings, hooks, MCP servers, memory or commands.
   */
  loginFiles: z.array(GrantedPath).optional(),
  /** The service hosts the agent talks to; inside the sandbox it reaches these and nothing else. */
  networkHosts: z.array(HostPattern).optional(),
  /**
   * The agent's own session mode that leaves confinement to the desk, for an agent that sandboxes its commands
   * itself (Codex: its sandbox cannot start inside the desk's). Set after `session/new` only when the desk's sandbox
   * confines the agent; unconfined, the agent keeps its own mode and its own sandbox.
   */
  confinedMode: z.string().min(1).optional(),
  /**
   * The mode to confine it in instead when the policy does not allow commands outright (`execute: ask` or `deny`): one
   * in which the agent asks the desk before a command (Codex: workspace-write), so the policy's question is asked.
   */
  confinedAskMode: z.string().min(1).optional(),
  /**
   * The agent's own config files that may name its model endpoint (`~/` is its HOME, `$NAME` a variable of its
   * environment, `$NAME/…` a file under it): read only to name that endpoint in a task's error or stall notice.
   */
  endpointFiles: z.array(z.string().min(1)).optional(),
  /** What the desk's Install gives npm for this agent (a package spec or a tarball path). */
  npmPackage: z.string().min(1).optional(),
  /** How long each handshake step (initialize, session/new…) may wait for an answer; default 30 s. */
  handshakeTimeoutMs: z.number().int().positive().max(600_000).optional(),
}));
export type AgentSpec = z.infer<typeof AgentSpec>;
