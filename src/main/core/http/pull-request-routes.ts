// A task's pull or merge request over HTTP: open it (201 when opened, 200 when the task already had one), refresh it,
// and address its feedback in a follow-up turn.
import { pullRequestRoutes } from '../../../shared/routes';
import type { TaskService } from '../tasks/task-service';
import type { Router } from './router';

export function addPullRequestRoutes(router: Router, deps: { tasks: Pick<TaskService, 'openPullRequest' | 'refreshPullRequest' | 'addressFeedback' | 'summary'> }): void {
  const { tasks } = deps;
  router
    .on(pullRequestRoutes.open, async ({ params, body }) => {
      const { created, pullRequest } = await tasks.openPullRequest(params.id, await body());
      return [created ? 201 : 200, pullRequest];
    })
    .on(pullRequestRoutes.refresh, async ({ params }) => [200, await tasks.refreshPullRequest(params.id)])
    .on(pullRequestRoutes.address, async ({ params, body }) => {
      await tasks.addressFeedback(params.id, await body());
      return [202, tasks.summary(params.id)];
    });
}
