// The dev-server service as a desk builds it: a task's worktree and agent from the store, its repository's
// `.desk/config.json`, and the same confinement and environment its agent gets.
import type { TaskEvent } from '../../../shared/events';
import { agentEnvironment } from '../agents/agent-environment';
import type { AgentRegistry } from '../agents/agent-registry';
import type { RepoSet } from '../repos/repo-set';
import type { TaskSandbox } from '../sandbox/task-sandbox';
import type { TasksRepo } from '../store/tasks-repo';
import { taskNotFound, unknownAgent } from '../tasks/task-errors';
import { sandboxFor, taskRepoOf } from '../tasks/task-repos';
import { createDevServerService, type DevServerService } from './dev-server-service';

export interface DeskDevServerDeps {
  tasks: Pick<TasksRepo, 'get'>;
  repos: Pick<RepoSet, 'default' | 'get'>;
  agents: Pick<AgentRegistry, 'get' | 'list'>;
  sandbox: Pick<TaskSandbox, 'isolate' | 'confines'>;
  record(taskId: string, attempt: number, event: TaskEvent): void;
  log(line: string): void;
  /** The Node that runs the port forwarder inside the sandbox (the one that runs the scripted agent). */
  nodePath: string;
}

export function createDeskDevServers(deps: DeskDevServerDeps): DevServerService {
  const taskOf = (id: string) => {
    const task = deps.tasks.get(id);
    if (!task) throw taskNotFound(id);
    return task;
  };
  const repoOf = (name: string | undefined) => taskRepoOf(name === undefined ? deps.repos.default : deps.repos.get(name));
  return createDevServerService({
    worktreeOf: (id) => taskOf(id).worktreePath ?? undefined,
    configOf: async (id) => (await repoOf(taskOf(id).repo).workspace.config()).devServer,
    async isolate(id, worktree) {
      const task = taskOf(id);
      const spec = deps.agents.get(task.agent);
      if (!spec) throw unknownAgent(task.agent, deps.agents.list().map((agent) => agent.id));
      const isolation = await sandboxFor(deps.sandbox, repoOf(task.repo)).isolate({ taskId: id, worktree, agent: spec, log: (line) => deps.log(`Dev server of ${id}: ${line}`) });
      return { isolation, env: agentEnvironment(process.env, spec) };
    },
    record: (id, event) => deps.record(id, taskOf(id).attempt, event),
    nodePath: deps.nodePath,
  });
}
