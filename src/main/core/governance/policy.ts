// The governance policy as pure functions: what to decide about one request, which policy applies to an
// agent, and whether its prompt rate and running tasks stay within its limits.
import { createRequire } from 'node:module';
import { isAbsolute, relative, sep } from 'node:path';
import type picomatch from 'picomatch';
import {
  Capability, DEFAULT_CAPABILITIES, type AgentPolicy, type GovernanceDecision, type PolicyFile,
} from '../../../shared/governance';
import { ALWAYS_ALLOWED_RULE } from '../../../shared/always-allow';

// Loaded with the first policy that lists paths, not at start.
const loadPicomatch = (): typeof picomatch => createRequire(import.meta.url)('picomatch') as typeof picomatch;

/** What is asked: an ACP tool kind (or `elicitation`), its title, the paths it touches and the command it runs. */
export interface PolicyInput {
  kind: string;
  title: string;
  /** Absolute, or relative to the worktree. */
  paths: readonly string[];
  command?: string;
}

export interface PolicyContext {
  /** The worktree the agent works in, as a real path (symlinks resolved). */
  worktree: string;
  /**
   * Turns an absolute path, not yet normalised (it may hold `..`), into the real one, following symlinks.
   * Injected so this module stays pure; it may throw when the path cannot be resolved.
   */
  resolvePath(path: string): string;
  /** The matcher of a list of allowed paths, kept by the caller across requests; default: built for this request. */
  allowedPathsMatcher?(globs: readonly string[]): (path: string) => boolean;
  /**
   * Capabilities a person answered "Always allow" for earlier in this task (for this agent): what the policy would ask
   * about is approved instead. Never more than that: a path outside the worktree, a denied command or a capability set to
   * `deny` is refused as before.
   */
  alwaysAllowed?: readonly string[];
}

export interface Decision {
  decision: GovernanceDecision;
  /**
   * Which rule decided: path-outside-worktree, git-metadata, path-not-allowed, denied-command, capability-denied,
   * capability-allowed, always-allowed-in-task, needs-person.
   */
  rule: string;
  /** A sentence saying why, for the agent and the audit log. */
  reason: string;
}

export function decide(input: PolicyInput, policy: AgentPolicy, context: PolicyContext): Decision {
  const inside: { path: string; relativePath: string }[] = [];
  for (const path of input.paths) {
    // Not path.join: it would fold `link/..` lexically, while the file system climbs from where the link points.
    const absolute = isAbsolute(path) ? path : `${context.worktree}${sep}${path}`;
    const real = tryResolve(context, absolute);
    if (real === undefined) {
      return { decision: 'rejected', rule: 'path-outside-worktree', reason: `${path} cannot be resolved, so it may lead outside the worktree.` };
    }
    const relativePath = relative(context.worktree, real);
    if (relativePath === '..' || relativePath.startsWith(`..${sep}`) || isAbsolute(relativePath)) {
      const via = real === absolute ? '' : ` (it leads to ${real})`;
      return { decision: 'rejected', rule: 'path-outside-worktree', reason: `${path} is outside the worktree${via}.` };
    }
    const slashed = relativePath.split(sep).join('/');
    // The worktree's `.git` ties it to the repository: changed, the desk's commit could land elsewhere.
    if ((slashed === '.git' || slashed.startsWith('.git/')) && !READ_ONLY_KINDS.has(input.kind)) {
      return { decision: 'rejected', rule: 'git-metadata', reason: `${path} is the worktree's link to its repository; agents may not change it.` };
    }
    inside.push({ path, relativePath: slashed });
  }

  const allowed = (context.allowedPathsMatcher ?? allowedPathsMatcher)(policy.allowedPaths);
  const everywhere = policy.allowedPaths.includes('**');
  for (const { path, relativePath } of inside) {
    // The worktree itself (e.g. a search from its root) is only covered by a policy allowing everything.
    const ok = relativePath === '' ? everywhere : allowed(relativePath);
    if (!ok) {
      return { decision: 'rejected', rule: 'path-not-allowed', reason: `${path} matches none of the allowed paths (${policy.allowedPaths.join(', ') || 'none'}).` };
    }
  }

  if (input.command !== undefined) {
    // Runs of white space are folded so that `rm  -rf  /` cannot slip past a pattern written with single spaces.
    const commandLine = input.command.trim().replace(/\s+/g, ' ');
    const denied = policy.deniedCommands.find((source) => new RegExp(source).test(commandLine));
    if (denied !== undefined) {
      return { decision: 'rejected', rule: 'denied-command', reason: `The command matches the denied pattern /${denied}/.` };
    }
  }

  const capability = capabilityOf(input.kind);
  const mode = policy.capabilities[capability];
  if (mode === 'deny') return { decision: 'rejected', rule: 'capability-denied', reason: `${capability} is denied for this agent.` };
  if (mode === 'allow') return { decision: 'approved', rule: 'capability-allowed', reason: `${capability} is allowed for this agent.` };
  if (context.alwaysAllowed?.includes(capability) === true) {
    return { decision: 'approved', rule: ALWAYS_ALLOWED_RULE, reason: `You chose Always allow for ${capability} earlier in this task.` };
  }
  return { decision: 'escalated', rule: 'needs-person', reason: `${capability} needs a person's answer.` };
}

const READ_ONLY_KINDS = new Set(['read', 'search', 'think']);

/** Whether a path relative to the worktree (with `/`) matches one of `globs`; building it costs more than matching. */
export function allowedPathsMatcher(globs: readonly string[]): (path: string) => boolean {
  return globs.length > 0 ? loadPicomatch()([...globs], { dot: true }) : () => false;
}

/** A path that cannot be resolved (a link loop, no permission) is treated as leading anywhere. */
function tryResolve(context: PolicyContext, absolute: string): string | undefined {
  try {
    return context.resolvePath(absolute);
  } catch {
    return undefined;
  }
}

/** Tool kinds the desk does not know (e.g. ACP `switch_mode`) are judged as `other`. */
export function capabilityOf(kind: string): Capability {
  const parsed = Capability.safeParse(kind);
  return parsed.success ? parsed.data : 'other';
}

/** The policy of one agent: built-in defaults, then the file's defaults, then the agent's overrides. */
export function effectivePolicy(file: PolicyFile, agentId: string): AgentPolicy {
  const defaults = file.defaults;
  const own = Object.hasOwn(file.agents, agentId) ? file.agents[agentId] : undefined;
  const promptsPerHour = own?.promptsPerHour ?? defaults.promptsPerHour;
  const concurrentTasks = own?.concurrentTasks ?? defaults.concurrentTasks;
  const network = own?.network ?? defaults.network;
  // Limits merge field by field: an agent may tighten (or loosen) one without restating the others; `limits`
  // wins over its older name `containerLimits` at the same level, and the agent's level over the defaults.
  const limits = { ...defaults.containerLimits, ...defaults.limits, ...own?.containerLimits, ...own?.limits };
  return {
    capabilities: { ...DEFAULT_CAPABILITIES, ...defaults.capabilities, ...own?.capabilities },
    allowedPaths: own?.allowedPaths ?? defaults.allowedPaths,
    deniedCommands: own?.deniedCommands ?? defaults.deniedCommands,
    requestsPerMinute: own?.requestsPerMinute ?? defaults.requestsPerMinute,
    sandbox: own?.sandbox ?? defaults.sandbox,
    readablePaths: own?.readablePaths ?? defaults.readablePaths,
    hiddenPaths: own?.hiddenPaths ?? defaults.hiddenPaths,
    ...(network !== undefined && { network }),
    ...(Object.keys(limits).length > 0 && { limits }),
    ...(promptsPerHour !== undefined && { promptsPerHour }),
    ...(concurrentTasks !== undefined && { concurrentTasks }),
    ...(own?.tokenSha256 !== undefined && { tokenSha256: own.tokenSha256 }),
  };
}

export type RateCheck = { ok: true } | { ok: false; reason: string; retryAfterMs?: number };

const HOUR_MS = 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;

/** Whether another prompt fits in the agent's prompts-per-hour (timestamps in epoch milliseconds). */
export function checkPromptRate(policy: AgentPolicy, promptTimestamps: readonly number[], now: number): RateCheck {
  if (policy.promptsPerHour === undefined) return { ok: true };
  return checkWindow(policy.promptsPerHour, HOUR_MS, promptTimestamps, now, 'prompts per hour');
}

/** Whether one more task of the agent may start while `runningCount` of its tasks run. */
export function checkConcurrency(policy: AgentPolicy, runningCount: number): RateCheck {
  if (policy.concurrentTasks === undefined || runningCount < policy.concurrentTasks) return { ok: true };
  return { ok: false, reason: `The agent already runs ${runningCount} tasks; its limit is ${policy.concurrentTasks} at once.` };
}

/** Whether another `POST /agent/request` fits in the agent's requests per minute. */
export function checkRequestRate(policy: AgentPolicy, requestTimestamps: readonly number[], now: number): RateCheck {
  return checkWindow(policy.requestsPerMinute, MINUTE_MS, requestTimestamps, now, 'requests per minute');
}

/** A sliding window: at most `limit` events in the last `windowMs`; says when the oldest one leaves it. */
function checkWindow(limit: number, windowMs: number, timestamps: readonly number[], now: number, what: string): RateCheck {
  const recent = timestamps.filter((at) => at > now - windowMs && at <= now).sort((a, b) => a - b);
  if (recent.length < limit) return { ok: true };
  // Room opens when enough of the oldest events have left the window for one more to fit.
  const freeing = recent[recent.length - limit] as number;
  return { ok: false, reason: `The limit of ${limit} ${what} is reached.`, retryAfterMs: Math.max(1, freeing + windowMs - now) };
}
