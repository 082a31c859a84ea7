// `GET /api/agents`: the agents a task may name, whether each can start here, and which one a task gets by default;
// and `/api/agents/<id>/login`: an agent's own terminal login, run where the person can see and answer it.
import type { AgentsResponse } from '../../../shared/agents';
import { apiRoutes } from '../../../shared/routes';
import type { AgentInstalls } from '../agents/agent-installs';
import type { AgentLogins } from '../agents/agent-logins';
import type { AgentNotes } from '../agents/agent-notes';
import type { AgentRegistry } from '../agents/agent-registry';
import type { AgentTest } from '../../../shared/agents';
import { DeskError } from '../../../shared/desk-error';
import type { Router } from './router';

export interface AgentRouteDeps {
  agents: AgentRegistry;
  defaultAgent: string;
  logins: AgentLogins;
  /** What runs and tests taught the desk about each agent, and its installs (Settings shows both). */
  notes?: AgentNotes;
  installs?: AgentInstalls;
  tests?: { test(agentId: string): Promise<AgentTest> };
}

const unavailable = (what: string) => new DeskError('conflict', 'not_offered', `This desk does not offer ${what}.`);

export function addAgentRoutes(router: Router, deps: AgentRouteDeps): void {
  const { logins } = deps;
  const facts = (id: string) => {
    const install = deps.installs?.view(id);
    return { ...deps.notes?.get(id), ...(install && { install }) };
  };
  router
    .on(apiRoutes.agents, async () => {
      const body: AgentsResponse = { agents: deps.agents.describe(deps.defaultAgent, facts), defaultAgent: deps.defaultAgent };
      return [200, body];
    })
    .on(apiRoutes.startInstall, async ({ body, params }) => {
      const { source } = await body();
      if (!deps.installs) throw unavailable('installs');
      return [202, deps.installs.start(params.id, source)];
    })
    .on(apiRoutes.install, async ({ params }) => {
      const install = deps.installs?.view(params.id);
      if (!install) throw new DeskError('not_found', 'unknown_install', `No install of agent ${params.id} has been started.`);
      return [200, install];
    })
    .on(apiRoutes.testAgent, async ({ params }) => {
      if (!deps.tests) throw unavailable('agent tests');
      const result = await deps.tests.test(params.id);
      deps.notes?.tested(params.id, result);
      return [200, result];
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
