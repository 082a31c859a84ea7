// Keeping a task's branch up to date with its base: how far apart they are, an update (merge or rebase), and the
// ways out of a conflict (the agent, the person's own resolution, undo).
import { baseRoutes } from '../../../shared/routes';
import type { TaskService } from '../tasks/task-service';
import type { Router } from './router';

export function addBaseUpdateRoutes(router: Router, deps: { tasks: TaskService }): void {
  const { tasks } = deps;
  router
    .on(baseRoutes.baseStatus, async ({ params }) => [200, await tasks.baseStatus(params.id)])
    .on(baseRoutes.update, async ({ body, params }) => {
      const { strategy } = await body();
      const { result, message } = await tasks.updateFromBase(params.id, strategy);
      const status = await tasks.baseStatus(params.id);
      return [200, { ...status, outcome: result.outcome, strategy, files: 'files' in result ? result.files : [], message, task: tasks.summary(params.id) }];
    })
    .on(baseRoutes.resolve, async ({ body, params }) => {
      const how = await body();
      if (how.by === 'agent') return [202, tasks.summary((await tasks.resolveWithAgent(params.id, how.note)).id)];
      const done = how.by === 'person' ? await tasks.resolveByPerson(params.id) : await tasks.undoUpdate(params.id);
      return [200, tasks.summary(done.id)];
    });
}
