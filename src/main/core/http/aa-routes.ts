// The Agent Assignment protocol: submit, list, inspect and cancel tasks.
import { CancelTask, SubmitTask, type ServerInfo } from '../../../shared/task';
import type { TaskService } from '../tasks/task-service';
import { toSummary } from '../tasks/task-view';
import { parseBody, readJsonBody } from './request-body';
import type { RouteHandler, Router } from './router';

export function addAgentAssignmentRoutes(router: Router, deps: { tasks: TaskService; serverName: string }): void {
  const { tasks } = deps;
  const detail: RouteHandler = async ({ params }) => [200, tasks.detail(params.id as string)];
  const cancel: RouteHandler = async ({ params }) => [200, toSummary(await tasks.cancel(params.id as string))];

  router
    .on('POST', '/', async ({ request }) => {
      const submission = parseBody(SubmitTask, await readJsonBody(request));
      return [202, toSummary(await tasks.submit(submission))];
    })
    .on('GET', '/', async () => [200, { serverName: deps.serverName, tasks: tasks.list() } satisfies ServerInfo])
    .on('DELETE', '/', async ({ request }) => {
      const { id } = parseBody(CancelTask, await readJsonBody(request));
      return [200, toSummary(await tasks.cancel(id))];
    })
    .on('GET', '/tasks/:id', detail)
    .on('DELETE', '/tasks/:id', cancel)
    .on('GET', '/:id', detail)
    .on('DELETE', '/:id', cancel);
}
