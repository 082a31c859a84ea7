// The Agent Assignment protocol: submit, list, inspect and cancel tasks; plus answering, follow-ups and session settings.
// Served twice: at `/` for the default repository (whose id routes reach any task of the desk, as the board needs),
// and at `/r/<name>/` bound to one repository (its list, its submissions, only its tasks).
import { aaRoutes, repoAaRoutes, repoBareRoutes } from '../../../shared/routes';
import type { TaskDetail, TaskSummary } from '../../../shared/task';
import { refuseDeleteOfFinished } from '../tasks/delete-refusal';
import type { RepoSet } from '../repos/repo-set';
import { taskNotFound } from '../tasks/task-errors';
import type { TaskService } from '../tasks/task-service';
import { answerList, createListCache } from './list-answer';
import { withChanges } from '../with-changes';
import type { RouteHandler, Router } from './router';

export interface AaRoutesDeps {
  tasks: TaskService;
  serverName: string;
  /** The desk's repositories; without them every task is in the one repository `/` speaks for. */
  repos?: Pick<RepoSet, 'default' | 'get'>;
}

/** Which repository a request speaks for, and whether a task may be reached through it. */
interface Scope {
  /** The repository's name; undefined: the desk has no names (one repository). */
  repo(params: Record<string, string>): string | undefined;
  /** Only the scope's own tasks (under `/r/<name>/`), or every task of the desk (at `/`). */
  ownTasksOnly: boolean;
}

export function addAgentAssignmentRoutes(router: Router, deps: AaRoutesDeps): void {
  const { repos } = deps;
  addRoutes(router, aaRoutes, deps, { repo: () => repos?.default.name, ownTasksOnly: false });
  if (!repos) return;
  // The contract adds `repo` to each route's parameters; the handlers below read it through the scope.
  const scope: Scope = { repo: (params) => repos.get(params.repo ?? '').name, ownTasksOnly: true };
  const handlers = addRoutes(router, repoAaRoutes as unknown as typeof aaRoutes, deps, scope);
  router.on(repoBareRoutes.submit as unknown as typeof aaRoutes.submit, handlers.submit).on(repoBareRoutes.list as unknown as typeof aaRoutes.list, handlers.list);
}

/** Registers the protocol's routes for one scope; returns the submit and list handlers, which `/r/<name>` reuses. */
function addRoutes(router: Router, routes: typeof aaRoutes, deps: AaRoutesDeps, scope: Scope) {
  const { tasks } = deps;
  // The list, as the protocol wants it, serialized once per change of any task.
  const lists = createListCache();
  const serverName = JSON.stringify(deps.serverName);
  /** The task's id, once it is known to be reachable here (`task_not_found` for another repository's under `/r/<name>/`). */
  const reachable = (params: Record<string, string>, id: string): string => {
    const repo = scope.repo(params);
    if (scope.ownTasksOnly && tasks.summary(id).repo !== repo) throw taskNotFound(id);
    return id;
  };
  const detail = async ({ params }: { params: { id: string } }) => [200, tasks.detail(reachable(params, params.id))] as [number, TaskDetail];
  const cancel = async ({ params }: { params: { id: string } }) => {
    const id = reachable(params, params.id);
    refuseDeleteOfFinished(tasks.summary(id));
    await tasks.cancel(id);
    return [200, tasks.summary(params.id)] as [number, TaskSummary];
  };

  const submit: RouteHandler<typeof aaRoutes.submit> = async ({ body, params }) => {
    const repo = scope.repo(params);
    const submission = await body();
    // Under /r/<name>/ the task is that repository's; at `/` it is the default one's unless it names another.
    const inScope = (scope.ownTasksOnly || submission.repo === undefined) && repo !== undefined;
    await tasks.submit(inScope ? withChanges(submission, { repo }) : submission);
    return [202, tasks.summary(submission.id)];
  };
  const list: RouteHandler<typeof aaRoutes.list> = async ({ request, params }) => {
    const repo = scope.repo(params);
    const { version, json } = repo === undefined ? tasks.listing.json() : tasks.listing.jsonOf(repo);
    // Assembled from cached JSON; its shape is ServerInfo: { serverName, tasks }.
    const answer = lists.get(`${repo ?? ''}/${version}`, () => `{"serverName":${serverName},"tasks":${json}}`);
    return [200, await answerList(request, answer)];
  };

  router
    .on(routes.submit, submit)
    .on(routes.list, list)
    .on(routes.cancelByBody, async ({ body, params }) => {
      const { id } = await body();
      refuseDeleteOfFinished(tasks.summary(reachable(params, id)));
      await tasks.cancel(id);
      return [200, tasks.summary(id)];
    })
    .on(routes.detail, detail)
    .on(routes.cancel, cancel)
    .on(routes.answer, async ({ body, params }) => {
      const question = tasks.answer(reachable(params, params.id), await body());
      return [200, { answered: question, task: tasks.summary(params.id) }];
    })
    .on(routes.followUp, async ({ body, params }) => {
      const { prompt } = await body();
      await tasks.followUp(reachable(params, params.id), prompt);
      return [202, tasks.summary(params.id)];
    })
    .on(routes.setMode, async ({ body, params }) => {
      const { modeId } = await body();
      await tasks.setMode(reachable(params, params.id), modeId);
      return [200, { modeId }];
    })
    .on(routes.setConfig, async ({ body, params }) => {
      const { configId, value } = await body();
      await tasks.setConfigOption(reachable(params, params.id), configId, value);
      return [200, { configId, value }];
    })
    .on(routes.detailShort, detail)
    .on(routes.cancelShort, cancel);
  return { submit, list };
}
