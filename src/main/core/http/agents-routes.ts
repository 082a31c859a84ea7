// `GET /api/agents`: the agents a task may name, whether each can start here, and which one a task gets by default.
import type { AgentsResponse } from '../../../shared/agents';
import type { AgentRegistry } from '../agents/agent-registry';
import type { Router } from './router';

export function addAgentRoutes(router: Router, deps: { agents: AgentRegistry; defaultAgent: string }): void {
  router.on('GET', '/api/agents', async () => {
    const body: AgentsResponse = { agents: deps.agents.describe(deps.defaultAgent), defaultAgent: deps.defaultAgent };
    return [200, body];
  });
}
