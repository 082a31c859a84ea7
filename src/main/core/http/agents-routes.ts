// `GET /api/agents`: the agents a task may name, whether each can start here, and which one a task gets by default;
// and `/api/agents/<id>/login`: an agent's own terminal login, run where the person can see and answer it.
import type { AgentsResponse } from '../../../shared/agents';
import { apiRoutes } from '../../../shared/routes';
import type { AgentLogins } from '../agents/agent-logins';
import type { AgentRegistry } from '../agents/agent-registry';
import type { Router } from './router';

export function addAgentRoutes(router: Router, deps: { agents: AgentRegistry; defaultAgent: string; logins: AgentLogins }): void {
  const { logins } = deps;
  router
    .on(apiRoutes.agents, async () => {
      const body: AgentsResponse = { agents: deps.agents.describe(deps.defaultAgent), defaultAgent: deps.defaultAgent };
      return [200, body];
    })
    .on(apiRoutes.startLogin, async ({ body, params }) => {
      const { methodId } = await body();
      return [202, await logins.start(params.id, methodId)];
    })
    .on(apiRoutes.login, async ({ params }) => [200, logins.view(params.id)])
    .on(apiRoutes.loginInput, async ({ body, params }) => {
      const { data } = await body();
      logins.write(params.id, data);
      return [200, logins.view(params.id)];
    })
    .on(apiRoutes.stopLogin, async ({ params }) => {
      await logins.stop(params.id);
      return [200, { stopped: params.id }];
    });
}
