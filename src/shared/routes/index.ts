// Every HTTP route of the desk, by family; the server, the board's client and docs/openapi.json all read this.
import { aaRoutes } from './aa';
import { agentRoutes } from './agent';
import { apiRoutes } from './api';
import { apRoutes } from './ap';
import { baseRoutes } from './base';
import { devServerRoutes } from './dev-server';
import { proposalRoutes } from './proposals';
import { pullRequestRoutes } from './pull-requests';
import { repoAaRoutes, repoBareRoutes, reposRoutes } from './repos';
import { reviewRoutes } from './review';
import type { RouteDef } from './route';

export { aaRoutes, agentRoutes, apiRoutes, apRoutes, baseRoutes, devServerRoutes, proposalRoutes, pullRequestRoutes, repoAaRoutes, repoBareRoutes, reposRoutes, reviewRoutes };

/** Every route in the order the server matches them: the AA short forms (`/:id`) last. */
export const ALL_ROUTES: readonly RouteDef[] = [
  ...Object.values(apiRoutes), ...Object.values(baseRoutes), ...Object.values(reposRoutes), ...Object.values(reviewRoutes), ...Object.values(pullRequestRoutes), ...Object.values(devServerRoutes), ...Object.values(proposalRoutes),
  ...Object.values(agentRoutes), ...Object.values(apRoutes), ...Object.values(repoAaRoutes), ...Object.values(repoBareRoutes), ...Object.values(aaRoutes),
];
