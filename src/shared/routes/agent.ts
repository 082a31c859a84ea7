// Governance routes: `/agent/*` for agents and hook scripts (desk or agent token), `/api/governance/*` for the board.
import { z } from 'zod';
import { ApiErrorBody } from '../api-error';
import {
  AgentCapabilities, AgentRequestBody, AgentRequestStatus, AnswerGovernanceRequest, GovernanceRecord, GovernanceRequestList,
  GovernanceState, IssuedAgentToken, PolicyInput, PolicyView,
} from '../governance';
import { AgentSandboxView } from '../sandbox-view';
import { defineRoute, Segment } from './route';

const family = 'Governance';
const byId = z.object({ id: Segment });
const error = ApiErrorBody;
const auth = 'desk-or-agent';

/** The largest page of `GET /api/governance/requests`. */
export const MAX_GOVERNANCE_PAGE = 1000;

export const GovernanceListQuery = z.object({
  limit: z.string().optional().transform((text, context) => {
    if (text === undefined) return 100;
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1 || value > MAX_GOVERNANCE_PAGE) {
      context.addIssue({ code: 'custom', message: `must be a whole number from 1 to ${MAX_GOVERNANCE_PAGE}` });
      return z.NEVER;
    }
    return value;
  }),
  agent: z.string().optional(),
  task: z.string().optional(),
  state: z.enum(GovernanceState.options, { error: `must be one of ${GovernanceState.options.join(', ')}` }).optional(),
  before: z.string().optional(),
});

export const agentRoutes = {
  request: defineRoute({
    method: 'POST', path: '/agent/request', family, auth, summary: 'Ask for approval, query, validate, or report on an earlier request.',
    body: AgentRequestBody, bodyKind: 'json', responses: { 200: AgentRequestStatus, 202: AgentRequestStatus }, error, errors: [400, 404, 409, 429],
  }),
  status: defineRoute({
    method: 'GET', path: '/agent/status/:id', family, auth, summary: "A governance request's state (poll it after a 202).",
    params: byId, responses: { 200: AgentRequestStatus }, error, errors: [404],
  }),
  capabilities: defineRoute({
    method: 'GET', path: '/agent/capabilities', family, auth, summary: "What the policy lets an agent do (?agent=<id> with the desk's token).",
    query: z.object({ agent: z.string().optional() }), responses: { 200: AgentCapabilities }, error, errors: [400],
  }),
  listRequests: defineRoute({
    method: 'GET', path: '/api/governance/requests', family, summary: 'The audit log of governance requests, newest first.',
    query: GovernanceListQuery, responses: { 200: GovernanceRequestList }, error, errors: [400],
  }),
  getRequest: defineRoute({
    method: 'GET', path: '/api/governance/requests/:id', family, summary: 'One governance request.',
    params: byId, responses: { 200: GovernanceRecord }, error, errors: [404],
  }),
  answerRequest: defineRoute({
    method: 'POST', path: '/api/governance/requests/:id/answer', family, summary: 'Answer an escalated request.',
    params: byId, body: AnswerGovernanceRequest, bodyKind: 'json', responses: { 200: GovernanceRecord }, error, errors: [400, 404, 409],
  }),
  policy: defineRoute({
    method: 'GET', path: '/api/governance/policy', family, summary: 'The governance policy.',
    responses: { 200: PolicyView }, error,
  }),
  savePolicy: defineRoute({
    method: 'PUT', path: '/api/governance/policy', family, summary: 'Replace the governance policy.',
    body: PolicyInput, bodyKind: 'json', responses: { 200: PolicyView }, error, errors: [400],
  }),
  issueToken: defineRoute({
    method: 'POST', path: '/api/governance/agents/:id/token', family, summary: 'Issue a token for an agent (replacing any earlier one).',
    params: byId, responses: { 201: IssuedAgentToken }, error, errors: [400],
  }),
  sandboxView: defineRoute({
    method: 'GET', path: '/api/governance/agents/:id/sandbox-view', family,
    summary: "What the agent sees in its sandbox: each place readable, writable or hidden, and why (the policy's hiddenPaths and readablePaths included).",
    params: byId, responses: { 200: AgentSandboxView }, error, errors: [400, 404],
  }),
  revokeToken: defineRoute({
    method: 'DELETE', path: '/api/governance/agents/:id/token', family, summary: "Revoke an agent's token.",
    params: byId, responses: { 200: z.object({ agentId: z.string(), revoked: z.boolean() }) }, error, errors: [400],
  }),
} as const;
