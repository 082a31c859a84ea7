import { describe, expect, it } from 'vitest';
import { AgentsResponse } from '../../../shared/agents';
import { apiRoutes } from '../../../shared/routes';
import { createAgentLogins } from '../agents/agent-logins';
import { createAgentRegistry } from '../agents/agent-registry';
import { KNOWN_AGENTS } from '../agents/known-agents';
import { addAgentRoutes } from './agents-routes';
import { createRouter, type RouteRequest } from './router';

describe('GET /api/agents', () => {
  it('answers every agent with its availability and the default', async () => {
    const scripted = { id: 'scripted', name: 'Scripted agent', command: '/usr/bin/node', args: [], dialect: 'acp' as const, envAllowlist: [], env: {} };
    const agents = createAgentRegistry(
      { scripted, builtins: KNOWN_AGENTS, custom: [], searchDirs: [], env: { PATH: '/usr/bin' } },
      { platform: 'linux', isExecutable: (path) => path === '/usr/bin/node' },
    );
    const router = createRouter();
    const logins = createAgentLogins({ agents, cwd: '/', clientVersion: 'test', record: () => {} });
    addAgentRoutes(router, { agents, defaultAgent: 'scripted', logins });

    const handler = router.handlerOf(apiRoutes.agents);
    const [status, body] = await handler?.({} as RouteRequest) as [number, unknown];

    expect(status).toBe(200);
    const response = AgentsResponse.parse(body);
    expect(response.defaultAgent).toBe('scripted');
    expect(response.agents).toHaveLength(1 + KNOWN_AGENTS.length);
    expect(response.agents.filter((agent) => agent.isDefault).map((agent) => agent.id)).toEqual(['scripted']);
    expect(response.agents.filter((agent) => agent.available).map((agent) => agent.id)).toEqual(['scripted']);
  });
});
