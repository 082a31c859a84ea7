// What the board needs beyond the AA protocol: review (diff, approve, reject, re-run), dependency links and settings.
import { AddDependency, SetDependencies, UpdateSettings, type DeskSettings } from '../../../shared/review';
import type { TaskService } from '../tasks/task-service';
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
    .on('GET', '/api/tasks', async () => [200, { tasks: tasks.list(), lastSeq: deps.lastSeq() }])
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
