// Review at scale over HTTP: archive and unarchive a task, clear every settled one, and per-file viewed marks.
import { reviewRoutes } from '../../../shared/routes';
import type { ViewedRepo } from '../store/viewed-repo';
import { clearDone } from '../tasks/task-archive';
import type { TaskService } from '../tasks/task-service';
import type { Router } from './router';

export function addReviewRoutes(router: Router, deps: { tasks: TaskService; viewed: ViewedRepo; now(): Date }): void {
  const { tasks, viewed } = deps;
  router
    .on(reviewRoutes.archive, async ({ params }) => [200, tasks.summary((await tasks.archive(params.id)).id)])
    .on(reviewRoutes.unarchive, async ({ params }) => [200, tasks.summary((await tasks.unarchive(params.id)).id)])
    .on(reviewRoutes.clearDone, async () => [200, { archived: await clearDone(tasks) }])
    .on(reviewRoutes.viewed, async ({ params }) => {
      tasks.summary(params.id); // 404 for an unknown task
      return [200, { files: viewed.forTask(params.id) }];
    })
    .on(reviewRoutes.setViewed, async ({ params, body }) => {
      tasks.summary(params.id);
      const { path, key, viewed: seen } = await body();
      if (seen) viewed.mark(params.id, path, key, deps.now().toISOString());
      else viewed.unmark(params.id, path);
      return [200, { files: viewed.forTask(params.id) }];
    });
}
