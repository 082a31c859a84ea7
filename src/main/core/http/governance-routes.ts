// Governance over HTTP: `/agent/*` for agents and hook scripts (desk or agent token), and
// `/api/governance/*` for the board: the audit log, answers to escalated requests, the policy, agent tokens.
import { AgentId, type AgentPolicy, type GovernanceRecord, type GovernanceRequestList, type IssuedAgentToken } from '../../../shared/governance';
import { agentRoutes } from '../../../shared/routes';
import { reviewInputOf, toAgentCapabilities, toAgentStatus, toPolicyView } from '../governance/agent-api';
import type { GovernanceService } from '../governance/governance-service';
import type { TaskGrant } from '../store/task-grants-repo';
import type { AlwaysAllowAnswers } from '../../../shared/always-allow';
import type { AgentSandboxView } from '../../../shared/sandbox-view';
import { HttpError } from './http-error';
import type { Principal, Router } from './router';

export interface GovernanceRouteDeps {
  governance: GovernanceService;
  /** Where an /agent/request's relative `target_path` starts when it names no task with a worktree. */
  repoRoot: string;
  /** The worktree of a task, once it has one; requests naming the task are judged against it. */
  worktreeOf?(taskId: string): string | undefined;
  /** What an agent sees in its sandbox (Settings); undefined for an agent the desk does not know. */
  sandboxViewOf?(agentId: string): AgentSandboxView | undefined;
  /** The "Always allow" answers given in tasks, newest first (default: none). */
  alwaysAllowAnswers?(): readonly TaskGrant[];
}


export function addGovernanceRoutes(router: Router, deps: GovernanceRouteDeps): void {
  const { governance } = deps;

  router
    .on(agentRoutes.request, async ({ body: readBody, principal }) => {
      const body = await readBody();
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
    })
    .on(agentRoutes.status, async ({ params, principal }) => {
      const record = governance.get(params.id);
      if (principal.kind === 'agent') assertOwn(record, principal.agentId);
      return [200, toAgentStatus(record)];
    })
    .on(agentRoutes.capabilities, async ({ query, principal }) => {
      const agentId = principal.kind === 'agent' ? principal.agentId : queryAgent(query().agent);
      return [200, toAgentCapabilities(agentId, governance.policyFor(agentId))];
    })

    .on(agentRoutes.listRequests, async ({ query }) => {
      const { limit, agent, task, state, before } = query();
      const requests = governance.list({
        limit,
        ...(agent !== undefined && { agentId: agent }),
        ...(task !== undefined && { taskId: task }),
        ...(state !== undefined && { state }),
        ...(before !== undefined && { before }),
      });
      return [200, { requests } satisfies GovernanceRequestList];
    })
    .on(agentRoutes.getRequest, async ({ params }) => [200, governance.get(params.id)])
    .on(agentRoutes.answerRequest, async ({ body, params }) => {
      const { decision, answeredBy } = await body();
      return [200, governance.answer(params.id, decision, answeredBy ?? 'desk')];
    })
    .on(agentRoutes.policy, async () => [200, toPolicyView(governance.getPolicy())])
    .on(agentRoutes.savePolicy, async ({ body }) => {
      const policy = await body();
      return [200, toPolicyView(governance.setPolicy(policy))];
    })
    .on(agentRoutes.alwaysAllowAnswers, async () => {
      const answers = (deps.alwaysAllowAnswers?.() ?? []).map((grant) => ({
        ...grant, isRule: governance.policyFor(grant.agent).capabilities[grant.capability as keyof AgentPolicy['capabilities']] === 'allow',
      }));
      return [200, { answers } satisfies AlwaysAllowAnswers];
    })
    .on(agentRoutes.makeAlwaysAllowRule, async ({ body }) => {
      const { agent, capability } = await body();
      return [200, toPolicyView(governance.allowCapability(agent, capability))];
    })
    .on(agentRoutes.issueToken, async ({ params }) => {
      const agentId = pathAgent(params.id);
      return [201, { agentId, token: governance.issueToken(agentId) } satisfies IssuedAgentToken];
    })
    .on(agentRoutes.sandboxView, async ({ params }) => {
      const agentId = pathAgent(params.id);
      const view = deps.sandboxViewOf?.(agentId);
      if (!view) throw new HttpError(404, 'not_found', `No agent "${agentId}" is configured here: pick one of GET /api/agents.`);
      return [200, view];
    })
    .on(agentRoutes.revokeToken, async ({ params }) => {
      const agentId = pathAgent(params.id);
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

function queryAgent(raw: string | undefined): string {
  if (raw === undefined) throw invalid('agent', 'is required with the desk token: /agent/capabilities?agent=<id>');
  return pathAgent(raw, 'agent');
}

function pathAgent(raw: string, field = 'id'): string {
  const parsed = AgentId.safeParse(raw);
  if (!parsed.success) throw invalid(field, parsed.error.issues[0]?.message ?? 'is not a valid agent id');
  return parsed.data;
}

function invalid(field: string, message: string): HttpError {
  return new HttpError(400, 'validation_error', `${field}: ${message}`, { field });
}
