// The app's own API for the board: a task's recorded events, page by page; and this contract as OpenAPI.
import type { EventPage } from '../../../shared/events';
import { apiRoutes } from '../../../shared/routes';
import type { EventsRepo } from '../store/events-repo';
import type { TaskService } from '../tasks/task-service';
import { buildOpenApiDocument, CONTRACT_VERSION } from './openapi-document';
import type { Router } from './router';

export function addApiRoutes(router: Router, deps: { tasks: TaskService; events: EventsRepo }): void {
  let openApi: Record<string, unknown> | undefined;
  router
    .on(apiRoutes.taskEvents, async ({ params, query }) => {
      deps.tasks.detail(params.id); // 404 for an unknown task
      const { after, limit } = query();
      const events = deps.events.listForTask(params.id, { after, limit });
      const last = events.at(-1);
      const page: EventPage = { events, ...(events.length === limit && last && { nextAfter: last.seq }) };
      return [200, page];
    })
    // Made at the first ask: most desks never serve it.
    .on(apiRoutes.openapi, async () => [200, openApi ??= buildOpenApiDocument(CONTRACT_VERSION)]);
}
