// The board's routes for the desk's repositories: list them, open another, close one, and give one a worktree setup.
import type { RepoInfo } from '../../../shared/repos';
import { reposRoutes } from '../../../shared/routes';
import { FINISHED_STATUSES } from '../../../shared/task';
import type { OpenRepo, RepoSet } from '../repos/repo-set';
import type { TaskService } from '../tasks/task-service';
import { readRepoConfigFile } from '../workspace/repo-config-file';
import type { Router } from './router';

export function addReposRoutes(router: Router, deps: { repos: RepoSet; tasks: Pick<TaskService, 'list'> }): void {
  const { repos, tasks } = deps;
  const list = async () => ({ repos: await Promise.all(repos.list().map(infoOf)) });

  router
    .on(reposRoutes.list, async () => [200, await list()])
    .on(reposRoutes.add, async ({ body }) => [201, await infoOf(await repos.add(await body()))])
    .on(reposRoutes.remove, async ({ params }) => {
      const unfinished = tasks.list().filter((task) => task.repo === params.name && !FINISHED_STATUSES.includes(task.status)).map((task) => task.id);
      repos.remove(params.name, unfinished);
      return [200, await list()];
    })
    .on(reposRoutes.setSetup, async ({ body, params }) => {
      const setup = await body();
      const empty = !setup.setup && !setup.cleanup && setup.copy.length === 0 && !setup.devServer;
      return [200, await infoOf(repos.setSettingsSetup(params.name, empty ? undefined : setup))];
    });
}

/** What the board shows of a repository; its own `.desk/config.json` wins over the settings and is shown as it is. */
async function infoOf(repo: OpenRepo): Promise<RepoInfo> {
  const file = await readRepoConfigFile(repo.root).catch(() => undefined);
  const source = file ? 'file' : repo.settingsSetup ? 'settings' : 'none';
  return {
    name: repo.name,
    path: repo.root,
    isDefault: repo.isDefault,
    baseBranch: repo.baseBranch,
    endpoint: repo.isDefault ? '/' : `/r/${repo.name}/`,
    setup: {
      source,
      ...((file ?? repo.settingsSetup) && { config: file ?? repo.settingsSetup }),
      ...(repo.settingsSetup && { settings: repo.settingsSetup }),
    },
  };
}
