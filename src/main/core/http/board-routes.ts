// What the board needs beyond the AA protocol: review (diff, approve, reject, re-run), dependency links and settings.
import { AddDependency, SetDependencies, UpdateSettings, type DeskSettings } from '../../../shared/review';
import { TaskListQuery } from '../../../shared/task-list';
import type { TaskService } from '../tasks/task-service';
import { answerList, encodeList } from './list-answer';
import { parseBody, readJsonBody } from './request-body';
import type { Router } from './router';

export interface BoardRouteDeps {
  tasks: TaskService;
  lastSeq(): number;
  fixedSettings: Pick<DeskSettings, 'serverName' | 'repository' | 'dataDir' | 'sandbox'>;
}

export function addBoardRoutes(router: Router, deps: BoardRouteDeps): void {
  const { tasks } = deps;
  const id = (params: Record<string, string>) => params.id as string;
  const settings = (): DeskSettings => ({ ...deps.fixedSettings, ...tasks.settings() });

  router
    // The board loads this, then opens the events socket with ?after=lastSeq: no gap, no duplicate.
    // Filtered and paged from the summaries in memory (shape: TaskPage); lastSeq is read first, so nothing falls between.
    .on('GET', '/api/tasks', async ({ request, url }) => {
      const query = parseBody(TaskListQuery, queryObject(url));
      const lastSeq = deps.lastSeq();
      const page = tasks.listing.page(query);
      const text = `{"tasks":${page.json},"lastSeq":${lastSeq},"cursor":${JSON.stringify(page.cursor)},"total":${page.total}${page.next === undefined ? '' : `,"next":${page.next}`}}`;
      return [200, await answerList(request, encodeList(text))];
    })
    .on('GET', '/api/tasks/:id/diff', async ({ params }) => [200, await tasks.diff(id(params))])
    .on('POST', '/tasks/:id/approve', async ({ params }) => [200, tasks.summary((await tasks.approve(id(params))).id)])
    .on('POST', '/tasks/:id/reject', async ({ params }) => [200, tasks.summary((await tasks.reject(id(params))).id)])
    .on('POST', '/tasks/:id/rerun', async ({ params }) => [202, tasks.summary((await tasks.rerun(id(params))).id)])
    .on('PUT', '/tasks/:id/dependencies', async ({ request, params }) => {
      const { dependencies } = parseBody(SetDependencies, await readJsonBody(request));
      return [200, tasks.detail((await tasks.setDependencies(id(params), dependencies)).id)];
    })
    .on('POST', '/tasks/:id/dependencies', async ({ request, params }) => {
      const { id: dependency } = parseBody(AddDependency, await readJsonBody(request));
      const task = tasks.detail(id(params));
      return [200, tasks.detail((await tasks.setDependencies(task.id, [...task.dependencies, dependency])).id)];
    })
    .on('DELETE', '/tasks/:id/dependencies/:dependency', async ({ params }) => {
      const task = tasks.detail(id(params));
      const remaining = task.dependencies.filter((d) => d !== params.dependency);
      return [200, tasks.detail((await tasks.setDependencies(task.id, remaining)).id)];
    })
    .on('GET', '/api/settings', async () => [200, settings()])
    .on('PUT', '/api/settings', async ({ request }) => {
      tasks.configure(parseBody(UpdateSettings, await readJsonBody(request)));
      return [200, settings()];
    });
}

/** The query string as an object for a zod schema: a parameter given more than once becomes a list. */
function queryObject(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0] as string : values;
  }
  return query;
}
