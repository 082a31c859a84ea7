// The governance contract: per-agent policies, the audit record of every request, and the /agent/* bodies.
// Request states follow the governance text (pending → validating → approved / rejected / escalated → completed).
import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import { GrantedPath, HostPattern, SandboxMode } from './sandbox';
import { ResourceLimits } from './limits';

/**
 * What an agent may ask to do: the ACP tool kinds, plus `elicitation` (a question with a form), and the desk's MCP
 * tools that change the board: `propose` (a new task) and `link` (a dependency between tasks).
 */
export const Capability = lazySchema(() => z.enum(['read', 'edit', 'delete', 'move', 'execute', 'fetch', 'search', 'think', 'other', 'elicitation', 'propose', 'link']));
export type Capability = z.infer<typeof Capability>;

/** `allow` approves without a person, `ask` escalates to a person, `deny` rejects. */
export const CapabilityMode = lazySchema(() => z.enum(['allow', 'ask', 'deny']));
export type CapabilityMode = z.infer<typeof CapabilityMode>;

/**
 * Built-in modes, used for every capability a policy file leaves out. Reading and editing inside the
 * worktree is the agent's job; anything that destroys, runs or reaches out is shown to a person first,
 * and so is every question (an agent asks because it wants a person's answer).
 */
export const DEFAULT_CAPABILITIES: Readonly<Record<Capability, CapabilityMode>> = {
  read: 'allow', search: 'allow', think: 'allow', edit: 'allow',
  delete: 'ask', move: 'ask', execute: 'ask', fetch: 'ask', other: 'ask', elicitation: 'ask',
  // A task an agent proposes waits for a person (`allow` queues it at once); linking tasks reorders, never adds, work.
  propose: 'ask', link: 'allow',
};

/**
 * Commands refused outright, before any person is asked. Kept short on purpose: only things no review
 * in a task's chat can make safe — wiping the disk or home, rewriting shared history on the remote, and
 * running a script straight from the network. Everything else that runs is escalated by default anyway.
 */
export const DEFAULT_DENIED_COMMANDS: readonly string[] = [
  String.raw`\brm\s+-\S*[rR]\S*\s+(\S+\s+)*(/|~|\$HOME)/?\*?(\s|$)`,
  String.raw`\bgit\s+push\b.*(\s--force\b|\s-f\b|\s\+\S)`,
  String.raw`\b(curl|wget)\b[^|]*\|\s*(sudo\s+)?(ba|z|da)?sh\b`,
];

export const DEFAULT_REQUESTS_PER_MINUTE = 60;

const PathGlob = lazySchema(() => z.string().min(1, 'must not be empty').max(500)
  .refine((glob) => !glob.startsWith('/') && !/^[a-zA-Z]:[\\/]/.test(glob), 'must be relative to the worktree'));

const CommandPattern = lazySchema(() => z.string().min(1, 'must not be empty').max(500).refine((source) => {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}, 'must be a valid regular expression'));

const Positive = lazySchema(() => z.int('must be a whole number').min(1, 'must be at least 1'));
const Sha256Hex = lazySchema(() => z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 hex digest'));

/** An agent id as policies, tokens and audit rows name it. */
export const AgentId = lazySchema(() => z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:@+-]*$/, 'may use letters, digits and . _ : @ + - only'));

/** What a policy file may set for all agents; anything left out falls back to the built-in defaults. */
export const PolicyDefaults = lazySchema(() => z.strictObject({
  capabilities: z.partialRecord(Capability, CapabilityMode).default({}),
  /** Globs relative to the worktree (picomatch, dot files included). */
  allowedPaths: z.array(PathGlob).max(200).default(['**']),
  /** Regular expression sources, matched against the whole command line. */
  deniedCommands: z.array(CommandPattern).max(200).default([...DEFAULT_DENIED_COMMANDS]),
  promptsPerHour: Positive.optional(),
  concurrentTasks: Positive.optional(),
  /** Limit of `POST /agent/request` calls. */
  requestsPerMinute: Positive.default(DEFAULT_REQUESTS_PER_MINUTE),
  /** Whether agents run in the OS sandbox (see SandboxMode). */
  sandbox: SandboxMode.default('auto'),
  /** Hosts the agent may reach, replacing the ones its registry entry declares; `["*"]` opens the network. */
  network: z.array(HostPattern).max(200).optional(),
  /** Paths the sandbox hides by default (credentials, e.g. `~/.ssh`) that the agent may read after all. */
  readablePaths: z.array(GrantedPath).max(100).default([]),
  /**
   * Memory (MB), processes and CPUs each task may use, on every runner: enforced with cgroups on this machine, as
   * container limits on the docker and cluster runners (where tighter ones in runners.json win).
   */
  limits: ResourceLimits.optional(),
  /** More paths the sandbox hides (`~/…` or absolute), on top of the home directory and /tmp it hides already. */
  hiddenPaths: z.array(GrantedPath).max(100).default([]),
  /** The earlier name of `limits`, still read; `limits` wins field by field where both are set. */
  containerLimits: ResourceLimits.optional(),
}));
export type PolicyDefaults = z.infer<typeof PolicyDefaults>;

/** One agent's departures from the defaults: capabilities merge key by key, lists replace. */
export const AgentOverrides = lazySchema(() => z.strictObject({
  capabilities: z.partialRecord(Capability, CapabilityMode).optional(),
  allowedPaths: z.array(PathGlob).max(200).optional(),
  deniedCommands: z.array(CommandPattern).max(200).optional(),
  promptsPerHour: Positive.optional(),
  concurrentTasks: Positive.optional(),
  requestsPerMinute: Positive.optional(),
  sandbox: SandboxMode.optional(),
  network: z.array(HostPattern).max(200).optional(),
  readablePaths: z.array(GrantedPath).max(100).optional(),
  hiddenPaths: z.array(GrantedPath).max(100).optional(),
  limits: ResourceLimits.optional(),
  containerLimits: ResourceLimits.optional(),
}));
export type AgentOverrides = z.infer<typeof AgentOverrides>;

/** An agent's entry as stored: its overrides and, once issued, the sha256 of its token. */
export const StoredAgentPolicy = lazySchema(() => AgentOverrides.extend({ tokenSha256: Sha256Hex.optional() }));
export type StoredAgentPolicy = z.infer<typeof StoredAgentPolicy>;

/**
 * More files a review flags as able to run code or steer agents on the person's machine (picomatch globs from the
 * repository's root, dot files included), on top of the built-in list (docs/security.md#files-that-need-attention).
 */
export const AttentionGlobs = lazySchema(() => z.array(PathGlob).max(200));

/** `<dataDir>/policy.json` as stored. */
export const PolicyFile = lazySchema(() => z.strictObject({
  version: z.literal(1),
  defaults: PolicyDefaults.prefault({}),
  agents: z.record(AgentId, StoredAgentPolicy).default({}),
  attentionGlobs: AttentionGlobs.default([]),
}));
export type PolicyFile = z.infer<typeof PolicyFile>;

/** The policy as clients read and write it: the stored file without token hashes (tokens are issued, not written). */
export const PolicyInput = lazySchema(() => z.strictObject({
  version: z.literal(1),
  defaults: PolicyDefaults.prefault({}),
  agents: z.record(AgentId, AgentOverrides).default({}),
  attentionGlobs: AttentionGlobs.default([]),
}));
export type PolicyInput = z.infer<typeof PolicyInput>;

/** `GET`/`PUT /api/governance/policy` answer. */
export const PolicyView = lazySchema(() => z.object({ policy: PolicyInput, agentsWithTokens: z.array(z.string()) }));
export type PolicyView = z.infer<typeof PolicyView>;

/** The policy that applies to one agent: defaults merged with its overrides, every capability spelled out. */
export const AgentPolicy = lazySchema(() => z.object({
  capabilities: z.record(Capability, CapabilityMode),
  allowedPaths: z.array(z.string()),
  deniedCommands: z.array(z.string()),
  promptsPerHour: z.int().optional(),
  concurrentTasks: z.int().optional(),
  requestsPerMinute: z.int(),
  sandbox: SandboxMode,
  network: z.array(z.string()).optional(),
  readablePaths: z.array(z.string()),
  hiddenPaths: z.array(z.string()),
  /** `limits` and its alias `containerLimits`, merged field by field (see effectivePolicy); built-in defaults fill the rest per runner. */
  limits: ResourceLimits.optional(),
  tokenSha256: z.string().optional(),
}));
export type AgentPolicy = z.infer<typeof AgentPolicy>;

export const GovernanceState = lazySchema(() => z.enum(['pending', 'validating', 'approved', 'rejected', 'escalated', 'completed']));
export type GovernanceState = z.infer<typeof GovernanceState>;

export const GovernanceDecision = lazySchema(() => z.enum(['approved', 'rejected', 'escalated']));
export type GovernanceDecision = z.infer<typeof GovernanceDecision>;

export const RequestType = lazySchema(() => z.enum(['APPROVAL', 'QUERY', 'VALIDATE', 'REPORT']));
export type RequestType = z.infer<typeof RequestType>;

/**
 * How a request ended: the agent was `allowed` or `rejected`; a question was `answered` or `declined`;
 * `cancelled` when the task stopped first; `validated` for a dry run; `done`/`failed` as the agent reported.
 */
export const GovernanceOutcome = lazySchema(() => z.enum(['allowed', 'rejected', 'cancelled', 'answered', 'declined', 'validated', 'done', 'failed']));
export type GovernanceOutcome = z.infer<typeof GovernanceOutcome>;

/** One row of the audit log: who asked what, what was decided by which rule, when, and how long the asker waited. */
export const GovernanceRecord = lazySchema(() => z.object({
  id: z.string(),
  agentId: z.string(),
  taskId: z.string().optional(),
  sessionId: z.string().optional(),
  source: z.enum(['acp', 'agent-api', 'mcp']),
  requestType: RequestType,
  /** The capability asked for (ACP tool kind, `elicitation`, or the agent API action mapped to one). */
  action: z.string(),
  /** What was asked, in words a person reads. */
  summary: z.string(),
  paths: z.array(z.string()),
  command: z.string().optional(),
  rationale: z.string().optional(),
  state: GovernanceState,
  /** Every state the request went through, in order. */
  history: z.array(z.object({ state: GovernanceState, at: z.string() })),
  decision: GovernanceDecision.optional(),
  /** The rule that decided (empty until the policy has decided). */
  rule: z.string(),
  reason: z.string(),
  createdAt: z.string(),
  decidedAt: z.string().optional(),
  completedAt: z.string().optional(),
  /** Milliseconds from the request until the asker had its answer (set once, when it got it). */
  waitedMs: z.number().int().optional(),
  answeredBy: z.string().optional(),
  outcome: GovernanceOutcome.optional(),
}));
export type GovernanceRecord = z.infer<typeof GovernanceRecord>;

/** `GET /api/governance/requests` answer, newest first. */
export const GovernanceRequestList = lazySchema(() => z.object({ requests: z.array(GovernanceRecord) }));
export type GovernanceRequestList = z.infer<typeof GovernanceRequestList>;

/** `POST /api/governance/requests/<id>/answer` body: a person's verdict on an escalated request. */
export const AnswerGovernanceRequest = lazySchema(() => z.strictObject({
  decision: z.enum(['approved', 'rejected']),
  answeredBy: z.string().min(1).max(200).optional(),
}));
export type AnswerGovernanceRequest = z.infer<typeof AnswerGovernanceRequest>;

/** What an agent outside ACP wants to do; `create`/`modify` count as `edit`. */
export const AgentAction = lazySchema(() => z.enum(['create', 'modify', 'delete', 'read', 'execute', 'fetch']));
export type AgentAction = z.infer<typeof AgentAction>;

const Text = lazySchema(() => z.string().max(100_000, 'must be at most 100000 characters'));
// Shapes made inside the schemas that use them: `AgentId.optional()` at load would build AgentId at every start.
const identity = () => ({
  /** Optional with an agent token (the token names the agent); required with the desk token. */
  agent_id: AgentId.optional(),
  session_id: z.string().max(200).optional(),
  task_id: z.string().min(1).max(200).optional(),
});
const asking = () => ({
  ...identity(),
  action: AgentAction,
  /** Relative to the worktree (the task's when `task_id` is given, else the repository), or absolute. */
  target_path: z.string().min(1).max(4096).optional(),
  command: z.string().min(1).max(10_000).optional(),
  content: Text.optional(),
  rationale: Text.optional(),
});

/** `POST /agent/request` body. APPROVAL stays open until decided; QUERY and VALIDATE only answer; REPORT closes an approved request. */
export const AgentRequestBody = lazySchema(() => z.discriminatedUnion('request_type', [
  z.object({ request_type: z.literal('APPROVAL'), ...asking() }),
  z.object({ request_type: z.literal('QUERY'), ...asking() }),
  z.object({ request_type: z.literal('VALIDATE'), ...asking() }),
  z.object({
    request_type: z.literal('REPORT'), ...identity(),
    request_id: z.string().min(1).max(200),
    completed: z.boolean().default(true),
    content: Text.optional(),
  }),
]).superRefine((body, context) => {
  if (body.request_type !== 'REPORT' && body.action === 'execute' && body.command === undefined) {
    context.addIssue({ code: 'custom', path: ['command'], message: 'is required when action is execute' });
  }
}));
export type AgentRequestBody = z.infer<typeof AgentRequestBody>;

/** `POST /agent/request` and `GET /agent/status/<id>` answer. */
export const AgentRequestStatus = lazySchema(() => z.object({
  request_id: z.string(),
  /** What the asker may do now: `escalated` while a person has not answered. */
  status: z.enum(['pending', 'approved', 'rejected', 'escalated']),
  state: GovernanceState,
  rule: z.string(),
  feedback: z.string(),
  processing_time_ms: z.number().int().optional(),
  escalation_reason: z.string().optional(),
  /** Poll here until a person answers an escalated request. */
  status_url: z.string(),
  answered_by: z.string().optional(),
  outcome: GovernanceOutcome.optional(),
}));
export type AgentRequestStatus = z.infer<typeof AgentRequestStatus>;

/** `GET /agent/capabilities` answer: the calling agent's effective policy, without its token hash. */
export const AgentCapabilities = lazySchema(() => z.object({
  agent_id: z.string(),
  capabilities: z.record(Capability, CapabilityMode),
  allowed_paths: z.array(z.string()),
  denied_commands: z.array(z.string()),
  requests_per_minute: z.int(),
  prompts_per_hour: z.int().optional(),
  concurrent_tasks: z.int().optional(),
}));
export type AgentCapabilities = z.infer<typeof AgentCapabilities>;

/** `POST /api/governance/agents/<id>/token` answer; the token is shown this once. */
export const IssuedAgentToken = lazySchema(() => z.object({ agentId: z.string(), token: z.string() }));
export type IssuedAgentToken = z.infer<typeof IssuedAgentToken>;
