// Governance as a service: reviews requests with the policy and records every step in the audit log,
// takes a person's answer to an escalated request, issues agent tokens, and keeps the policy file.
// It never waits: whoever asked (the task service, an /agent/request client) waits and calls back.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { AgentId, PolicyFile, type AgentPolicy, type Capability, type GovernanceOutcome, type GovernanceRecord, type GovernanceState, PolicyInput } from '../../../shared/governance';
import type { z } from 'zod';
import type { GovernanceFilter, GovernanceRepo } from './governance-repo';
import { requestAlreadyAnswered, governanceConflict, rateLimited, governanceRequestNotFound } from './governance-errors';
import { allowedPathsMatcher, checkRequestRate, decide, effectivePolicy, type Decision } from './policy';
import type { PolicyStore } from './policy-file';
import { realPathOf } from './real-path';
import { resolvedThrough } from '../agents/view-paths';

type PolicyInputText = z.input<typeof PolicyInput>;

export interface ReviewInput {
  agentId: string;
  taskId?: string;
  sessionId?: string;
  source: GovernanceRecord['source'];
  /** APPROVAL stays open until completed; QUERY and VALIDATE only say what the policy would decide. Default APPROVAL. */
  requestType?: 'APPROVAL' | 'QUERY' | 'VALIDATE';
  /** ACP tool kind, `elicitation`, or a capability. */
  kind: string;
  /** What is asked, as a person would read it. */
  title: string;
  paths: readonly string[];
  command?: string;
  rationale?: string;
  /** The worktree the agent works in; paths must stay inside it. */
  worktree: string;
  /** Capabilities a person answered "Always allow" for earlier in the task (see PolicyContext.alwaysAllowed). */
  alwaysAllowed?: readonly string[];
}

export interface GovernanceServiceDeps {
  repo: GovernanceRepo;
  policyStore: PolicyStore;
  /** The policy as the host found it at start, made when first needed; default: read from the store at once. */
  initialPolicy?: () => PolicyFile;
  now: () => Date;
  /** Follows symlinks; default: the real file system. */
  resolvePath?: (path: string) => string;
  /**
   * How the desk reaches a worktree that is a layer (../sandbox/task-layers.ts), mounted where the task's processes run:
   * paths in it are resolved through that view, as the agent's own namespace resolves them. undefined for a checkout.
   */
  reachOf?: (worktree: string) => ((path: string) => string) | undefined;
  newId?: () => string;
  /** Called after the policy decides, a person answers, and a request is completed (`record.state` says which). */
  onChange?: (record: GovernanceRecord) => void;
}

export interface GovernanceService {
  /** Runs the policy on a request: pending → validating → approved / rejected / escalated, all recorded. */
  review(input: ReviewInput): GovernanceRecord;
  /** Closes a decided request with what happened; an escalated one needs `answeredBy` to count as allowed. */
  complete(id: string, result: { outcome: GovernanceOutcome; answeredBy?: string }): GovernanceRecord;
  /** A person's verdict on an escalated /agent/request; the first answer wins, a later one throws `already_answered`. */
  answer(id: string, decision: 'approved' | 'rejected', answeredBy: string): GovernanceRecord;
  /** The agent reports what became of an approved request (REPORT). */
  report(id: string, completed: boolean): GovernanceRecord;
  /** Throws `governance_request_not_found`. */
  get(id: string): GovernanceRecord;
  /** Newest first. */
  list(filter: GovernanceFilter): GovernanceRecord[];
  /** Counts one /agent/request of the agent; throws `rate_limited` past its requests per minute. */
  admitAgentRequest(agentId: string): void;
  /** A new token for the agent (replacing any earlier one); only its sha256 is kept. */
  issueToken(agentId: string): string;
  /** True when the agent had a token. */
  revokeToken(agentId: string): boolean;
  /** The agent a token belongs to, compared in constant time. */
  agentForToken(token: string): string | undefined;
  policyFor(agentId: string): AgentPolicy;
  getPolicy(): PolicyFile;
  /** Validates and saves a new policy; agents' tokens are kept (they change only by issue and revoke). */
  /** Takes the policy as written (defaults may be left out); the stored file has every default spelled out. */
  setPolicy(input: PolicyInputText): PolicyFile;
  /** Sets one capability of one agent to `allow` in the policy (an "Always allow" answer made a rule); the rest stays. */
  allowCapability(agentId: string, capability: Capability): PolicyFile;
}

const OPEN_STATES: readonly GovernanceState[] = ['approved', 'rejected', 'escalated'];
const YES_OUTCOMES: readonly GovernanceOutcome[] = ['allowed', 'answered', 'done'];

export function createGovernanceService(deps: GovernanceServiceDeps): GovernanceService {
  const { repo, policyStore, now } = deps;
  const resolvePath = deps.resolvePath ?? realPathOf;
  const newId = deps.newId ?? randomUUID;
  const notify = deps.onChange ?? (() => {});
  // Without `initialPolicy` the file is read now (a broken one throws here); with it, the policy is made when first
  // needed: with no policy file, making the defaults builds the policy's schemas, which a start does not need.
  const { initialPolicy } = deps;
  let loaded = initialPolicy === undefined ? policyStore.load() : undefined;
  const policy = (): PolicyFile => (loaded ??= initialPolicy === undefined ? policyStore.load() : initialPolicy());
  const requestTimes = new Map<string, number[]>();
  // A policy's list of allowed paths is one array until the policy is replaced: its matcher is built once (two requests
  // per task each built it before).
  const matchers = new WeakMap<readonly string[], (path: string) => boolean>();
  const matcherFor = (globs: readonly string[]) => {
    let matcher = matchers.get(globs);
    if (matcher === undefined) matchers.set(globs, matcher = allowedPathsMatcher(globs));
    return matcher;
  };

  function get(id: string): GovernanceRecord {
    const record = repo.get(id);
    if (!record) throw governanceRequestNotFound(id);
    return record;
  }

  function moveTo(record: GovernanceRecord, state: GovernanceState, at: Date, patch: Partial<GovernanceRecord> = {}): GovernanceRecord {
    return { ...record, ...patch, state, history: [...record.history, { state, at: at.toISOString() }] };
  }

  /** Writes `next` if nobody moved the request since it was read; otherwise the other writer answered first. */
  function save(next: GovernanceRecord, expected: GovernanceState): GovernanceRecord {
    if (!repo.update(next, expected)) throw requestAlreadyAnswered(next.id, repo.get(next.id)?.answeredBy);
    return next;
  }

  function waited(record: GovernanceRecord, at: Date): number {
    return record.waitedMs ?? Math.max(0, at.getTime() - Date.parse(record.createdAt));
  }

  function judge(input: ReviewInput): Decision {
    let worktree: string;
    const reach = deps.reachOf?.(input.worktree);
    try {
      // The worktree must exist: a missing one would make every path "inside" something that is not there.
      worktree = reach ? resolvedThrough(input.worktree, input.worktree, reach) : realpathSync(input.worktree);
    } catch (error) {
      // Without a worktree to judge against nothing can be shown to be safe: refuse.
      return { decision: 'rejected', rule: 'no-worktree', reason: `The worktree ${input.worktree} cannot be resolved: ${(error as Error).message}` };
    }
    return decide({ kind: input.kind, title: input.title, paths: input.paths, ...(input.command !== undefined && { command: input.command }) },
      effectivePolicy(policy(), input.agentId), {
      worktree, resolvePath: reach ? (path) => resolvedThrough(path, worktree, reach) : resolvePath, allowedPathsMatcher: matcherFor, ...(input.alwaysAllowed !== undefined && { alwaysAllowed: input.alwaysAllowed }),
    });
  }

  function savePolicy(next: PolicyFile): PolicyFile {
    const parsed = PolicyFile.parse(next);
    policyStore.save(parsed);
    loaded = parsed;
    return parsed;
  }

  return {
    review(input) {
      const requestType = input.requestType ?? 'APPROVAL';
      const createdAt = now();
      let record: GovernanceRecord = {
        id: newId(), agentId: input.agentId, source: input.source, requestType, action: input.kind,
        summary: input.title, paths: [...input.paths], state: 'pending', history: [{ state: 'pending', at: createdAt.toISOString() }],
        rule: '', reason: '', createdAt: createdAt.toISOString(),
        ...(input.taskId !== undefined && { taskId: input.taskId }),
        ...(input.sessionId !== undefined && { sessionId: input.sessionId }),
        ...(input.command !== undefined && { command: input.command }),
        ...(input.rationale !== undefined && { rationale: input.rationale }),
      };
      // The request is written once, decided: nothing runs between its steps (judging is synchronous), so nobody could
      // read or move it in between, and its history keeps every step with its time. Two writes fewer per request.
      record = moveTo(record, 'validating', now());
      let verdict: Decision;
      try {
        verdict = judge(input);
      } catch (error) {
        repo.insert(record);
        throw error;
      }
      const decidedAt = now();
      let decided = moveTo(record, verdict.decision, decidedAt, { ...verdict, decidedAt: decidedAt.toISOString() });
      if (requestType !== 'APPROVAL') {
        // A dry run is over once answered: nothing stays open, whatever the policy said.
        decided = moveTo(decided, 'completed', decidedAt, { outcome: 'validated', completedAt: decidedAt.toISOString(), waitedMs: waited(decided, decidedAt) });
      } else if (input.source === 'agent-api' && verdict.decision !== 'escalated') {
        // The answer to this call is the agent's answer; a rejection leaves nothing more to happen.
        decided = { ...decided, waitedMs: waited(decided, decidedAt) };
        if (verdict.decision === 'rejected') decided = moveTo(decided, 'completed', decidedAt, { outcome: 'rejected', completedAt: decidedAt.toISOString() });
      }
      repo.insert(decided);
      notify(decided);
      return decided;
    },

    complete(id, { outcome, answeredBy }) {
      const record = get(id);
      if (record.state === 'completed') throw requestAlreadyAnswered(id, record.answeredBy);
      if (!OPEN_STATES.includes(record.state)) throw governanceConflict(`Request ${id} is not decided yet (${record.state}).`);
      if (YES_OUTCOMES.includes(outcome) && record.state === 'rejected') {
        throw governanceConflict(`Request ${id} was rejected (${record.rule}); it cannot end as ${outcome}.`);
      }
      if (YES_OUTCOMES.includes(outcome) && record.state === 'escalated' && !answeredBy) {
        // An unanswered request never approves itself: only a named person lets an escalated request through.
        throw governanceConflict(`Request ${id} waits for a person; say who answered it.`);
      }
      const at = now();
      const next = moveTo(record, 'completed', at, {
        outcome, completedAt: at.toISOString(), waitedMs: waited(record, at), ...(answeredBy !== undefined && { answeredBy }),
      });
      notify(save(next, record.state));
      return next;
    },

    answer(id, decision, answeredBy) {
      const record = get(id);
      if (record.source === 'mcp') {
        throw governanceConflict(`Request ${id} is a tool call of task ${record.taskId ?? '?'}'s agent; a proposed task is answered with POST /tasks/<proposed id>/accept-proposal or /dismiss-proposal.`);
      }
      if (record.source !== 'agent-api') {
        throw governanceConflict(`Request ${id} was asked by the agent of task ${record.taskId ?? '?'}; answer it with POST /tasks/${record.taskId ?? '<id>'}/input.`);
      }
      if (record.state !== 'escalated') {
        if (record.history.some((step) => step.state === 'escalated')) throw requestAlreadyAnswered(id, record.answeredBy);
        throw governanceConflict(`Request ${id} was not escalated: the policy ${record.decision ?? 'has not'} decided it (${record.rule || record.state}).`);
      }
      const at = now();
      let next = moveTo(record, decision, at, { answeredBy, waitedMs: waited(record, at) });
      if (decision === 'rejected') next = moveTo(next, 'completed', at, { outcome: 'rejected', completedAt: at.toISOString() });
      notify(save(next, 'escalated'));
      return next;
    },

    report(id, completed) {
      const record = get(id);
      if (record.state !== 'approved') {
        throw governanceConflict(`Request ${id} is ${record.state}${record.state === 'escalated' ? ' (no person has approved it yet)' : ''}; only an approved request can be reported.`);
      }
      const at = now();
      const next = moveTo(record, 'completed', at, { outcome: completed ? 'done' : 'failed', completedAt: at.toISOString() });
      notify(save(next, 'approved'));
      return next;
    },

    get,
    list: (filter) => repo.list(filter),

    admitAgentRequest(agentId) {
      const at = now().getTime();
      const recent = (requestTimes.get(agentId) ?? []).filter((t) => t > at - 60_000);
      const check = checkRequestRate(effectivePolicy(policy(), agentId), recent, at);
      if (!check.ok) {
        requestTimes.set(agentId, recent);
        throw rateLimited(`${check.reason} Agent ${agentId} may ask again in a moment.`, Math.ceil((check.retryAfterMs ?? 1000) / 1000));
      }
      requestTimes.set(agentId, [...recent, at]);
    },

    issueToken(agentId) {
      const id = AgentId.parse(agentId);
      const token = `agt_${randomBytes(32).toString('base64url')}`;
      const current = policy();
      const own = Object.hasOwn(current.agents, id) ? current.agents[id] : undefined;
      savePolicy({ ...current, agents: { ...current.agents, [id]: { ...own, tokenSha256: sha256(token).toString('hex') } } });
      return token;
    },

    revokeToken(agentId) {
      const current = policy();
      const own = Object.hasOwn(current.agents, agentId) ? current.agents[agentId] : undefined;
      if (own?.tokenSha256 === undefined) return false;
      const { tokenSha256: _revoked, ...rest } = own;
      savePolicy({ ...current, agents: { ...current.agents, [agentId]: rest } });
      return true;
    },

    agentForToken(token) {
      const presented = sha256(token);
      let found: string | undefined;
      // Every stored hash is compared, so the time taken does not say which agents have tokens.
      for (const [agentId, entry] of Object.entries(policy().agents)) {
        if (entry.tokenSha256 === undefined) continue;
        if (timingSafeEqual(Buffer.from(entry.tokenSha256, 'hex'), presented) && found === undefined) found = agentId;
      }
      return found;
    },

    policyFor: (agentId) => effectivePolicy(policy(), agentId),
    getPolicy: policy,

    setPolicy(written) {
      const input = PolicyInput.parse(written);
      const agents: PolicyFile['agents'] = { ...input.agents };
      for (const [agentId, entry] of Object.entries(policy().agents)) {
        if (entry.tokenSha256 !== undefined) agents[agentId] = { ...agents[agentId], tokenSha256: entry.tokenSha256 };
      }
      return savePolicy({ version: 1, defaults: input.defaults, agents, attentionGlobs: input.attentionGlobs });
    },

    allowCapability(agentId, capability) {
      const id = AgentId.parse(agentId);
      const current = policy();
      const own = Object.hasOwn(current.agents, id) ? current.agents[id] : undefined;
      return savePolicy({ ...current, agents: { ...current.agents, [id]: { ...own, capabilities: { ...own?.capabilities, [capability]: 'allow' } } } });
    },
  };
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
