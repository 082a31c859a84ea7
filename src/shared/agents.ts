// The agents contract: what `GET /api/agents` answers, so a client can offer a choice of agent per task.
import { z } from 'zod';
import { lazySchema } from './lazy-schema';

/** How the desk talks to an agent: standard ACP v1, the Kandev dialect, or decided by the agent's `initialize` answer. */
export const AgentDialect = lazySchema(() => z.enum(['acp', 'kandev', 'auto']));
export type AgentDialect = z.infer<typeof AgentDialect>;

/** Where an agent entry comes from; a later source overrides an earlier one with the same id. */
export const AgentSource = lazySchema(() => z.enum(['builtin', 'config', 'ad-hoc']));
export type AgentSource = z.infer<typeof AgentSource>;

/** Who the agent says it is in its `initialize` answer (ACP `agentInfo`). */
export const AgentImplementation = lazySchema(() => z.object({ name: z.string(), title: z.string().optional(), version: z.string() }));
export type AgentImplementation = z.infer<typeof AgentImplementation>;

/** The one thing that works for one of an agent's login methods. */
export const LoginAction = lazySchema(() => z.discriminatedUnion('kind', [
  /** The agent's own login command, run by the desk in a terminal (`POST /api/agents/<id>/login`). */
  z.object({ kind: z.literal('terminal-login'), agentId: z.string(), methodId: z.string(), route: z.string() }),
  /** Variables to set where the desk starts (it passes them to this agent), then `authMethod` in agents.json when named. */
  z.object({ kind: z.literal('env'), variables: z.array(z.string()).min(1), authMethod: z.string().optional() }),
  /** The desk asks the agent to log in this way when `authMethod` is set in agents.json. */
  z.object({ kind: z.literal('authenticate'), methodId: z.string() }),
]));
export type LoginAction = z.infer<typeof LoginAction>;

/** One of the agent's login methods (ACP `authMethods`), with the action that works for it, in words too. */
export const LoginMethodHelp = lazySchema(() => z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  action: LoginAction,
  hint: z.string(),
}));
export type LoginMethodHelp = z.infer<typeof LoginMethodHelp>;

/** What an agent that wants a login needs, whenever it says so (initialize, session/new or a prompt). */
export const LoginHelp = lazySchema(() => z.object({
  agentId: z.string(),
  agentName: z.string(),
  /** The agent's own words. */
  agentMessage: z.string(),
  methods: z.array(LoginMethodHelp),
  /** One paragraph saying all of the above, as the task's error shows it. */
  message: z.string(),
}));
export type LoginHelp = z.infer<typeof LoginHelp>;

/** What an agent's handshake test found (`POST /api/agents/<id>/test`: `initialize`, then `session/new` in a temp dir). */
export const AgentTest = lazySchema(() => z.object({
  agentId: z.string(),
  /** `ready`: a session started; `needs-login`: the agent wants a login first; `failed`: anything else. */
  outcome: z.enum(['ready', 'needs-login', 'failed']),
  implementation: AgentImplementation.optional(),
  /** The protocol the agent answered (`1` for ACP, `"1.0"` for Kandev). */
  protocolVersion: z.union([z.number(), z.string()]).optional(),
  login: LoginHelp.optional(),
  message: z.string(),
  durationMs: z.number().int().nonnegative(),
  at: z.string(),
}));
export type AgentTest = z.infer<typeof AgentTest>;

/** Where an agent is in its life on this desk, as Settings shows it. */
export const AgentState = lazySchema(() => z.enum(['not-installed', 'installed', 'needs-login', 'ready']));
export type AgentState = z.infer<typeof AgentState>;

/** `POST /api/agents/<id>/install` body: what to give npm instead of the agent's package (a tarball path or a package spec). */
export const StartInstall = lazySchema(() => z.object({ source: z.string().min(1).max(4096).optional() }));
export type StartInstall = z.infer<typeof StartInstall>;

/** An install (npm, into the desk's agent cache): its progress and the end of its log; the log also streams as `install:<id>` events. */
export const AgentInstall = lazySchema(() => z.object({
  agentId: z.string(),
  source: z.string(),
  /** Where it installs: `<data dir>/agent-cache`, never a global prefix. */
  prefix: z.string(),
  state: z.enum(['running', 'done', 'failed']),
  /** 0…1, an estimate while npm works; 1 when done. */
  progress: z.number().min(0).max(1),
  /** The last lines npm wrote. */
  log: z.string(),
  message: z.string().optional(),
  startedAt: z.string(),
  finishedAt: z.string().optional(),
  /** The events id its log lines carry on the events socket. */
  eventsId: z.string(),
}));
export type AgentInstall = z.infer<typeof AgentInstall>;

/** One agent as a client sees it. Its own variables (`env`) are left out: they may hold secrets. */
export const AgentInfo = lazySchema(() => z.object({
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
  /** `not-installed`, `installed` (found, not tried), `needs-login` (it asked for one), `ready` (a test session started). */
  state: AgentState,
  /** What Install gives npm, when the desk can install this agent. */
  npmPackage: z.string().optional(),
  /** Who the agent said it is, the last time it was started or tested. */
  implementation: AgentImplementation.optional(),
  /** The login it asked for last, with what works for each method. */
  login: LoginHelp.optional(),
  test: AgentTest.optional(),
  install: AgentInstall.optional(),
}));
export type AgentInfo = z.infer<typeof AgentInfo>;

export const AgentsResponse = lazySchema(() => z.object({
  agents: z.array(AgentInfo),
  defaultAgent: z.string(),
}));
export type AgentsResponse = z.infer<typeof AgentsResponse>;

/** `POST /api/agents/<id>/login` body: which of the agent's terminal login methods to run (default: its first). */
export const StartLogin = lazySchema(() => z.object({ methodId: z.string().min(1).optional() }));
export type StartLogin = z.infer<typeof StartLogin>;

/** `POST /api/agents/<id>/login/input` body: what the person types into the login terminal. */
export const LoginInput = lazySchema(() => z.object({ data: z.string().min(1).max(4096) }));
export type LoginInput = z.infer<typeof LoginInput>;

/** An agent's login running in a terminal the person sees; its output also streams as events of `login:<agentId>`. */
export const AgentLogin = lazySchema(() => z.object({
  agentId: z.string(),
  methodId: z.string(),
  methodName: z.string(),
  terminalId: z.string(),
  command: z.string(),
  args: z.array(z.string()),
  output: z.string(),
  exitStatus: z.object({ exitCode: z.number().int().nullable(), signal: z.string().nullable() }).nullable(),
  /** The id its terminal events carry on the events socket. */
  eventsId: z.string(),
}));
export type AgentLogin = z.infer<typeof AgentLogin>;

