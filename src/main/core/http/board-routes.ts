// What the board needs beyond the AA protocol: review (diff, approve, reject, re-run), dependency links and settings.
import type { DeskSettings } from '../../../shared/review';
import type { DiskNotice } from '../../../shared/disk';
import { apiRoutes } from '../../../shared/routes';
import { DEFAULT_QUIET_AFTER_SECONDS, type QuietTasks } from '../tasks/quiet-tasks';
import type { TaskService } from '../tasks/task-service';
import { answerList, encodeList } from './list-answer';
import type { Router } from './router';

export interface BoardRouteDeps {
  tasks: TaskService;
  lastSeq(): number;
  fixedSettings: Pick<DeskSettings, 'serverName' | 'repository' | 'dataDir' | 'sandbox'>;
  /** Holds `quietAfterSeconds`; without it the setting reads as the default and is not changed. */
  quiet?: Pick<QuietTasks, 'limitSeconds' | 'setLimitSeconds'>;
  /** The desk's notice while the data dir's disk is full. */
  disk?: { current(): DiskNotice | undefined };
}

export function addBoardRoutes(router: Router, deps: BoardRouteDeps): void {
  const { tasks } = deps;
  const settings = (): DeskSettings => {
    const diskFull = deps.disk?.current();
    return { ...deps.fixedSettings, ...tasks.settings(), quietAfterSeconds: deps.quiet?.limitSeconds() ?? DEFAULT_QUIET_AFTER_SECONDS, ...(diskFull && { diskFull }) };
  };

  router
    // The board loads this, then opens the events socket with ?after=lastSeq: no gap, no duplicate.
    // Filtered and paged from the summaries in memory (shape: TaskPage); lastSeq is read first, so nothing falls between.
    .on(apiRoutes.listTasks, async ({ request, query: readQuery }) => {
      const query = readQuery();
      const lastSeq = deps.lastSeq();
      const page = tasks.listing.page(query);
      const text = `{"tasks":${page.json},"lastSeq":${lastSeq},"cursor":${JSON.stringify(page.cursor)},"total":${page.total}${page.next === undefined ? '' : `,"next":${page.next}`}}`;
      return [200, await answerList(request, encodeList(text))];
    })
    .on(apiRoutes.diff, async ({ params }) => [200, await tasks.diff(params.id)])
    .on(apiRoutes.approve, async ({ params, body }) => {
      const { confirmAttention } = await body();
      return [200, tasks.summary((await tasks.approve(params.id, { ...(confirmAttention !== undefined && { confirmAttention }) })).id)];
    })
    .on(apiRoutes.reject, async ({ params }) => [200, tasks.summary((await tasks.reject(params.id)).id)])
    .on(apiRoutes.rerun, async ({ params }) => [202, tasks.summary((await tasks.rerun(params.id)).id)])
    .on(apiRoutes.setDependencies, async ({ body, params }) => {
      const { dependencies } = await body();
      return [200, tasks.detail((await tasks.setDependencies(params.id, dependencies)).id)];
    })
    .on(apiRoutes.addDependency, async ({ body, params }) => {
      const { id: dependency } = await body();
      const task = tasks.detail(params.id);
      return [200, tasks.detail((await tasks.setDependencies(task.id, [...task.dependencies, dependency])).id)];
    })
    .on(apiRoutes.removeDependency, async ({ params }) => {
      const task = tasks.detail(params.id);
      const remaining = task.dependencies.filter((d) => d !== params.dependency);
      return [200, tasks.detail((await tasks.setDependencies(task.id, remaining)).id)];
    })
    .on(apiRoutes.settings, async () => [200, settings()])
    .on(apiRoutes.updateSettings, async ({ body }) => {
      const { quietAfterSeconds, ...rest } = await body();
      tasks.configure(rest);
      if (quietAfterSeconds !== undefined) deps.quiet?.setLimitSeconds(quietAfterSeconds);
      return [200, settings()];
    });
}

