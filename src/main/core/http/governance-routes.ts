// Governance over HTTP: `/agent/*` for agents and hook scripts (desk or agent token), and
// `/api/governance/*` for the board: the audit log, answers to escalated requests, the policy, agent tokens.
import {
  AgentId, AgentRequestBody, AnswerGovernanceRequest, GovernanceState, PolicyInput,
  type GovernanceRecord, type GovernanceRequestList, type IssuedAgentToken,
} from '../../../shared/governance';
import { reviewInputOf, toAgentCapabilities, toAgentStatus, toPolicyView } from '../governance/agent-api';
import type { GovernanceService } from '../governance/governance-service';
import { HttpError } from './http-error';
import { parseBody, readJsonBody } from './request-body';
import type { Principal, Router } from './router';

export interface GovernanceRouteDeps {
  governance: GovernanceService;
  /** Where an /agent/request's relative `target_path` starts when it names no task with a worktree. */
  repoRoot: string;
  /** The worktree of a task, once it has one; requests naming the task are judged against it. */
  worktreeOf?(taskId: string): string | undefined;
}

const MAX_PAGE = 1000;
const agentRoute = { auth: 'desk-or-agent' } as const;

export function addGovernanceRoutes(router: Router, deps: GovernanceRouteDeps): void {
  const { governance } = deps;

  router
    .on('POST', '/agent/request', async ({ request, principal }) => {
      const body = parseBody(AgentRequestBody, await readJsonBody(request));
      const agentId = callingAgent(principal, body.agent_id);
      governance.admitAgentRequest(agentId);
      if (body.request_type === 'REPORT') {
        assertOwn(governance.get(body.request_id), agentId);
        return [200, toAgentStatus(governance.report(body.request_id, body.completed))];
      }
      const worktree = (body.task_id !== undefined ? deps.worktreeOf?.(body.task_id) : undefined) ?? deps.repoRoot;
      const record = governance.review(reviewInputOf(body, agentId, worktree));
      // 202: a person still has to answer; poll status_url.
      return [record.state === 'escalated' ? 202 : 200, toAgentStatus(record)];
    }, agentRoute)
    .on('GET', '/agent/status/:id', async ({ params, principal }) => {
      const record = governance.get(params.id as string);
      if (principal.kind === 'agent') assertOwn(record, principal.agentId);
      return [200, toAgentStatus(record)];
    }, agentRoute)
    .on('GET', '/agent/capabilities', async ({ url, principal }) => {
      const agentId = principal.kind === 'agent' ? principal.agentId : queryAgent(url.searchParams.get('agent'));
      return [200, toAgentCapabilities(agentId, governance.policyFor(agentId))];
    }, agentRoute)

    .on('GET', '/api/governance/requests', async ({ url }) => {
      const query = url.searchParams;
      const state = query.get('state');
      const parsedState = state === null ? undefined : GovernanceState.safeParse(state);
      if (parsedState && !parsedState.success) throw invalid('state', `must be one of ${GovernanceState.options.join(', ')}`);
      const requests = governance.list({
        limit: limitParam(query.get('limit')),
        ...(query.get('agent') !== null && { agentId: query.get('agent') as string }),
        ...(query.get('task') !== null && { taskId: query.get('task') as string }),
        ...(parsedState?.success && { state: parsedState.data }),
        ...(query.get('before') !== null && { before: query.get('before') as string }),
      });
      return [200, { requests } satisfies GovernanceRequestList];
    })
    .on('GET', '/api/governance/requests/:id', async ({ params }) => [200, governance.get(params.id as string)])
    .on('POST', '/api/governance/requests/:id/answer', async ({ request, params }) => {
      const { decision, answeredBy } = parseBody(AnswerGovernanceRequest, await readJsonBody(request));
      return [200, governance.answer(params.id as string, decision, answeredBy ?? 'desk')];
    })
    .on('GET', '/api/governance/policy', async () => [200, toPolicyView(governance.getPolicy())])
    .on('PUT', '/api/governance/policy', async ({ request }) => {
      const policy = parseBody(PolicyInput, await readJsonBody(request));
      return [200, toPolicyView(governance.setPolicy(policy))];
    })
    .on('POST', '/api/governance/agents/:id/token', async ({ params }) => {
      const agentId = pathAgent(params.id as string);
      return [201, { agentId, token: governance.issueToken(agentId) } satisfies IssuedAgentToken];
    })
    .on('DELETE', '/api/governance/agents/:id/token', async ({ params }) => {
      const agentId = pathAgent(params.id as string);
      return [200, { agentId, revoked: governance.revokeToken(agentId) }];
    });
}

/** With an agent token the token names the agent; with the desk token the body must. */
function callingAgent(principal: Principal, claimed: string | undefined): string {
  if (principal.kind === 'agent') {
    if (claimed !== undefined && claimed !== principal.agentId) {
      throw new HttpError(403, 'forbidden', `This token belongs to agent "${principal.agentId}", not "${claimed}".`);
    }
    return principal.agentId;
  }
  if (claimed === undefined) throw invalid('agent_id', 'is required with the desk token (an agent token names its agent)');
  return claimed;
}

function assertOwn(record: GovernanceRecord, agentId: string): void {
  if (record.agentId !== agentId) throw new HttpError(403, 'forbidden', `Request ${record.id} belongs to another agent.`);
}

function queryAgent(raw: string | null): string {
  if (raw === null) throw invalid('agent', 'is required with the desk token: /agent/capabilities?agent=<id>');
  return pathAgent(raw, 'agent');
}

function pathAgent(raw: string, field = 'id'): string {
  const parsed = AgentId.safeParse(raw);
  if (!parsed.success) throw invalid(field, parsed.error.issues[0]?.message ?? 'is not a valid agent id');
  return parsed.data;
}

function limitParam(raw: string | null): number {
  if (raw === null) return 100;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > MAX_PAGE) throw invalid('limit', `must be a whole number from 1 to ${MAX_PAGE}`);
  return value;
}

function invalid(field: string, message: string): HttpError {
  return new HttpError(400, 'validation_error', `${field}: ${message}`, { field });
}
