// Governance routes: `/agent/*` for agents and hook scripts (desk or agent token), `/api/governance/*` for the board.
import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import {
  AgentCapabilities, AgentRequestBody, AgentRequestStatus, AnswerGovernanceRequest, GovernanceRecord, GovernanceRequestList,
  GovernanceState, IssuedAgentToken, PolicyInput, PolicyView,
} from '../governance';
import { AlwaysAllowAnswers, MakeAlwaysAllowRule } from '../always-allow';
import { AgentSandboxView } from '../sandbox-view';
import { ById, routesOf } from './route';

const governance = routesOf('Governance');
/** Routes agents and their hook scripts call too, with an agent's token. */
const forAgents = routesOf('Governance', { auth: 'desk-or-agent' });

/** The largest page of `GET /api/governance/requests`. */
export const MAX_GOVERNANCE_PAGE = 1000;

export const GovernanceListQuery = lazySchema(() => z.object({
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
}));

export const agentRoutes = {
  request: forAgents.post('/agent/request', 'Ask for approval, query, validate, or report on an earlier request.',
    { body: AgentRequestBody, bodyKind: 'json', responses: { 200: AgentRequestStatus, 202: AgentRequestStatus }, errors: [400, 404, 409, 429] }),
  status: forAgents.get('/agent/status/:id', "A governance request's state (poll it after a 202).",
    { params: ById, responses: { 200: AgentRequestStatus }, errors: [404] }),
  capabilities: forAgents.get('/agent/capabilities', "What the policy lets an agent do (?agent=<id> with the desk's token).",
    { query: z.object({ agent: z.string().optional() }), responses: { 200: AgentCapabilities }, errors: [400] }),
  listRequests: governance.get('/api/governance/requests', 'The audit log of governance requests, newest first.',
    { query: GovernanceListQuery, responses: { 200: GovernanceRequestList }, errors: [400] }),
  getRequest: governance.get('/api/governance/requests/:id', 'One governance request.', { params: ById, responses: { 200: GovernanceRecord }, errors: [404] }),
  answerRequest: governance.post('/api/governance/requests/:id/answer', 'Answer an escalated request.',
    { params: ById, body: AnswerGovernanceRequest, bodyKind: 'json', responses: { 200: GovernanceRecord }, errors: [400, 404, 409] }),
  policy: governance.get('/api/governance/policy', 'The governance policy.', { responses: { 200: PolicyView } }),
  savePolicy: governance.put('/api/governance/policy', 'Replace the governance policy.',
    { body: PolicyInput, bodyKind: 'json', responses: { 200: PolicyView }, errors: [400] }),
  alwaysAllowAnswers: governance.get('/api/governance/always-allow',
    'The "Always allow" answers people gave in tasks (each approves its capability for the rest of its task), newest first.',
    { responses: { 200: AlwaysAllowAnswers } }),
  makeAlwaysAllowRule: governance.post('/api/governance/always-allow/rule',
    "Make an \"Always allow\" answer a policy rule: the agent's capability becomes `allow` in the policy, for every task.",
    { body: MakeAlwaysAllowRule, bodyKind: 'json', responses: { 200: PolicyView }, errors: [400] }),
  issueToken: governance.post('/api/governance/agents/:id/token', 'Issue a token for an agent (replacing any earlier one).',
    { params: ById, responses: { 201: IssuedAgentToken }, errors: [400] }),
  sandboxView: governance.get('/api/governance/agents/:id/sandbox-view',
    "What the agent sees in its sandbox: each place readable, writable or hidden, and why (the policy's hiddenPaths and readablePaths included).",
    { params: ById, responses: { 200: AgentSandboxView }, errors: [400, 404] }),
  revokeToken: governance.delete('/api/governance/agents/:id/token', "Revoke an agent's token.",
    { params: ById, responses: { 200: z.object({ agentId: z.string(), revoked: z.boolean() }) }, errors: [400] }),
} as const;
