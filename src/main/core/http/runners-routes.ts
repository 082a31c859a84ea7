// `GET /api/runners`: each runner's state for Settings.
import { apiRoutes } from '../../../shared/routes';
import type { RunnerSet } from '../runners/runner-set';
import type { Router } from './router';

export function addRunnerRoutes(router: Router, deps: { runners: RunnerSet }): void {
  router.on(apiRoutes.runners, async () => [200, { runners: await deps.runners.states() }]);
}
