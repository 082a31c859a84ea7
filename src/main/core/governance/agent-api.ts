// The agent API's translations, pure: an /agent/request body into a review, and records and policies into
// the answers agents and the board read (token hashes never leave the core).
import type {
  AgentAction, AgentCapabilities, AgentPolicy, AgentRequestBody, AgentRequestStatus, Capability,
  GovernanceRecord, PolicyFile, PolicyView,
} from '../../../shared/governance';
import type { ReviewInput } from './governance-service';

/** `create` and `modify` are edits; the other actions name their capability. */
export const CAPABILITY_OF_ACTION: Readonly<Record<AgentAction, Capability>> = {
  read: 'read', create: 'edit', modify: 'edit', delete: 'delete', execute: 'execute', fetch: 'fetch',
};

type AskingBody = Exclude<AgentRequestBody, { request_type: 'REPORT' }>;

export function reviewInputOf(body: AskingBody, agentId: string, worktree: string): ReviewInput {
  const title = [body.action, body.target_path].filter(Boolean).join(' ') + (body.command !== undefined ? `: ${body.command}` : '');
  return {
    agentId, source: 'agent-api', requestType: body.request_type, kind: CAPABILITY_OF_ACTION[body.action], title, worktree,
    paths: body.target_path !== undefined ? [body.target_path] : [],
    ...(body.task_id !== undefined && { taskId: body.task_id }),
    ...(body.session_id !== undefined && { sessionId: body.session_id }),
    ...(body.command !== undefined && { command: body.command }),
    ...(body.rationale !== undefined && { rationale: body.rationale }),
  };
}

/** What the asker may do now, whatever state the request is in. */
export function statusOf(record: GovernanceRecord): AgentRequestStatus['status'] {
  switch (record.state) {
    case 'pending':
    case 'validating':
      return 'pending';
    case 'completed':
      if (record.outcome === 'validated') return record.decision ?? 'pending';
      return record.outcome === 'rejected' || record.outcome === 'declined' || record.outcome === 'cancelled' ? 'rejected' : 'approved';
    default:
      return record.state;
  }
}

export function toAgentStatus(record: GovernanceRecord): AgentRequestStatus {
  const status = statusOf(record);
  return {
    request_id: record.id,
    status,
    state: record.state,
    rule: record.rule,
    feedback: record.answeredBy !== undefined ? `${record.reason} Answered by ${record.answeredBy}.` : record.reason,
    ...(record.decidedAt !== undefined && { processing_time_ms: Date.parse(record.decidedAt) - Date.parse(record.createdAt) }),
    ...(record.decision === 'escalated' && { escalation_reason: record.reason }),
    status_url: `/agent/status/${encodeURIComponent(record.id)}`,
    ...(record.answeredBy !== undefined && { answered_by: record.answeredBy }),
    ...(record.outcome !== undefined && { outcome: record.outcome }),
  };
}

export function toAgentCapabilities(agentId: string, policy: AgentPolicy): AgentCapabilities {
  return {
    agent_id: agentId,
    capabilities: policy.capabilities,
    allowed_paths: policy.allowedPaths,
    denied_commands: policy.deniedCommands,
    requests_per_minute: policy.requestsPerMinute,
    ...(policy.promptsPerHour !== undefined && { prompts_per_hour: policy.promptsPerHour }),
    ...(policy.concurrentTasks !== undefined && { concurrent_tasks: policy.concurrentTasks }),
  };
}

/** The policy as clients see it: without token hashes, but saying which agents have a token. */
export function toPolicyView(file: PolicyFile): PolicyView {
  const agents: PolicyView['policy']['agents'] = {};
  const agentsWithTokens: string[] = [];
  for (const [agentId, { tokenSha256, ...overrides }] of Object.entries(file.agents)) {
    agents[agentId] = overrides;
    if (tokenSha256 !== undefined) agentsWithTokens.push(agentId);
  }
  return { policy: { version: 1, defaults: file.defaults, agents, attentionGlobs: file.attentionGlobs }, agentsWithTokens: agentsWithTokens.sort() };
}
