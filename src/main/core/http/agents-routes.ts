// `GET /api/agents`: the agents a task may name, whether each can start here, and which one a task gets by default;
// and `/api/agents/<id>/login`: an agent's own terminal login, run where the person can see and answer it.
import { LoginInput, StartLogin, type AgentsResponse } from '../../../shared/agents';
import type { AgentLogins } from '../agents/agent-logins';
import type { AgentRegistry } from '../agents/agent-registry';
import { parseBody, readJsonBody } from './request-body';
import type { Router } from './router';

export function addAgentRoutes(router: Router, deps: { agents: AgentRegistry; defaultAgent: string; logins: AgentLogins }): void {
  const { logins } = deps;
  router
    .on('GET', '/api/agents', async () => {
      const body: AgentsResponse = { agents: deps.agents.describe(deps.defaultAgent), defaultAgent: deps.defaultAgent };
      return [200, body];
    })
    .on('POST', '/api/agents/:id/login', async ({ request, params }) => {
      const { methodId } = parseBody(StartLogin, request.headers['content-length'] === '0' ? {} : await readJsonBody(request));
      return [202, await logins.start(params.id as string, methodId)];
    })
    .on('GET', '/api/agents/:id/login', async ({ params }) => [200, logins.view(params.id as string)])
    .on('POST', '/api/agents/:id/login/input', async ({ request, params }) => {
      const { data } = parseBody(LoginInput, await readJsonBody(request));
      logins.write(params.id as string, data);
      return [200, logins.view(params.id as string)];
    })
    .on('DELETE', '/api/agents/:id/login', async ({ params }) => {
      await logins.stop(params.id as string);
      return [200, { stopped: params.id }];
    });
}
