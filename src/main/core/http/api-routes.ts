// The app's own API for the board: a task's recorded events, page by page.
import type { EventPage } from '../../../shared/events';
import type { EventsRepo } from '../store/events-repo';
import type { TaskService } from '../tasks/task-service';
import { HttpError } from './http-error';
import type { Router } from './router';

const MAX_PAGE = 5000;

export function addApiRoutes(router: Router, deps: { tasks: TaskService; events: EventsRepo }): void {
  router.on('GET', '/api/tasks/:id/events', async ({ params, url }) => {
    const id = params.id as string;
    deps.tasks.detail(id); // 404 for an unknown task
    const after = integerParam(url, 'after', 0);
    const limit = Math.max(1, Math.min(integerParam(url, 'limit', 1000), MAX_PAGE));
    const events = deps.events.listForTask(id, { after, limit });
    const last = events.at(-1);
    const page: EventPage = { events, ...(events.length === limit && last && { nextAfter: last.seq }) };
    return [200, page];
  });
}

function integerParam(url: URL, name: string, fallback: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new HttpError(400, 'validation_error', `${name}: must be a whole number ≥ 0`, { field: name });
  return value;
}
