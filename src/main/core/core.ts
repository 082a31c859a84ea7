// The composition root: builds every service of the core from a config and hands them out. No singletons.
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { TaskEvent } from '../../shared/events';
import { createAgentRegistry, type AgentRegistry } from './agents/agent-registry';
import type { CoreConfig } from './core-config';
import { createEventBus, type EventBus } from './events/event-bus';
import { openRepository } from './git/repository';
import { createGitService, type GitService } from './git/git-service';
import { refuseWithoutPolicy } from './governance/no-policy-permission';
import { addAgentAssignmentRoutes } from './http/aa-routes';
import { addApiRoutes } from './http/api-routes';
import { createEventsSocket } from './http/events-socket';
import { createRouter } from './http/router';
import { createHttpHost, type HttpHost } from './http/server';
import { openDatabase } from './store/database';
import { createEventsRepo, type EventsRepo } from './store/events-repo';
import { createTasksRepo } from './store/tasks-repo';
import { UnknownAgentError } from './tasks/task-errors';
import { runTask } from './tasks/task-runner';
import { createTaskService, type TaskService } from './tasks/task-service';

export interface Core {
  readonly repoRoot: string;
  readonly baseBranch: string;
  readonly tasks: TaskService;
  readonly events: EventsRepo;
  readonly bus: EventBus;
  readonly git: GitService;
  readonly agents: AgentRegistry;
  readonly http: HttpHost;
  /** Listens, then recovers interrupted tasks and starts scheduling. */
  listen(port: number, host: string): Promise<AddressInfo>;
  /** Stops agents (their tasks run again next time), closes the server, writes pending events, closes the database. */
  close(): Promise<void>;
}

export async function createCore(config: CoreConfig): Promise<Core> {
  const now = config.now ?? (() => new Date());
  const log = config.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const agents = createAgentRegistry(config.agents);
  if (!agents.get(config.defaultAgent)) throw new UnknownAgentError(config.defaultAgent, agents.list().map((a) => a.id));

  // Everything that can refuse the configuration runs before anything is opened or started.
  const { root: repoRoot } = await openRepository(config.repoPath);
  const git = createGitService({
    repoRoot,
    worktreesDir: join(config.dataDir, 'worktrees', shortHash(repoRoot)),
    hooksDir: join(config.dataDir, 'no-hooks'),
    now,
  });
  const baseBranch = config.baseBranch ?? await git.currentBranch();
  await git.assertUsableBase(baseBranch);

  const db = openDatabase(join(config.dataDir, 'desk.sqlite'));
  const events = createEventsRepo(db, repoRoot);
  const bus = createEventBus();
  const record = (taskId: string, attempt: number, event: TaskEvent) => bus.publish(events.append(taskId, attempt, event, now().toISOString()));

  const tasks = createTaskService({
    tasks: createTasksRepo(db, repoRoot),
    git,
    agents,
    record,
    run: runTask,
    decidePermission: async (task, request) => {
      const outcome = refuseWithoutPolicy(request);
      record(task.id, task.attempt, { type: 'log', level: 'warn', source: 'desk', text: `Refused "${request.toolCall.title ?? 'a permission request'}": no governance policy allows it.` });
      return outcome;
    },
    now,
    config: { concurrency: config.concurrency, defaultAgent: config.defaultAgent, baseBranch, clientVersion: config.appVersion },
  });

  const router = createRouter();
  addApiRoutes(router, { tasks, events });
  addAgentAssignmentRoutes(router, { tasks, serverName: config.serverName });
  const http = createHttpHost({
    router,
    security: { token: config.token, allowedHosts: config.allowedHosts, allowedOrigins: config.allowedOrigins },
    eventsSocket: createEventsSocket({ bus, events }),
    log: (error) => log(`Request failed: ${error instanceof Error ? error.stack : String(error)}`),
  });

  let closed = false;
  return {
    repoRoot, baseBranch, tasks, events, bus, git, agents, http,
    async listen(port, host) {
      const address = await http.listen(port, host);
      await tasks.recover();
      tasks.start();
      return address;
    },
    async close() {
      if (closed) return;
      closed = true;
      await tasks.shutdown();
      await http.close();
      events.close();
      db.close();
    },
  };
}

/** Worktrees of different repositories sharing a data dir must not collide. */
function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}
