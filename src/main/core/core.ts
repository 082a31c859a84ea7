// The composition root: builds every service of the core from a config and hands them out. No singletons.
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { TaskEvent } from '../../shared/events';
import { binDir } from './agents/agent-catalog';
import { createAgentLogins } from './agents/agent-logins';
import { createAgentRegistry, type AgentRegistry } from './agents/agent-registry';
import type { CoreConfig } from './core-config';
import { createEventBus, type EventBus } from './events/event-bus';
import { DEFAULT_RETENTION_DAYS, startEventRetention, type EventRetention } from './events/event-retention';
import { loadDeskId } from './git/desk-id';
import { openRepository } from './git/repository';
import { createGitService, type GitService } from './git/git-service';
import { createGovernanceGate } from './governance/governance-gate';
import { createGovernanceRepo } from './governance/governance-repo';
import { createGovernanceService, type GovernanceService } from './governance/governance-service';
import { createPolicyFileStore } from './governance/policy-file';
import { addAgentRoutes } from './http/agents-routes';
import { addBoardRoutes } from './http/board-routes';
import { createStaticUi } from './http/static-ui';
import { addGovernanceRoutes } from './http/governance-routes';
import { addAgentAssignmentRoutes } from './http/aa-routes';
import { addAgentProtocolRoutes } from './http/ap-routes';
import { addApiRoutes } from './http/api-routes';
import { createEventsSocket } from './http/events-socket';
import { createRouter } from './http/router';
import { createHttpHost, type HttpHost } from './http/server';
import { openDatabase } from './store/database';
import { createEventsRepo, type EventsRepo } from './store/events-repo';
import { createTasksRepo } from './store/tasks-repo';
import { createTurnsRepo } from './store/turns-repo';
import { unknownAgent } from './tasks/task-errors';
import { runTask } from './tasks/task-runner';
import { prepareAllowlistNetwork } from './sandbox/network/sandbox-network';
import { probeSandbox } from './sandbox/sandbox-probe';
import { createTaskSandbox } from './sandbox/task-sandbox';
import { createWorkspaceSetup } from './workspace/workspace-setup';
import type { SandboxStatus } from '../../shared/sandbox';
import { createTaskService, type TaskService } from './tasks/task-service';
import { RunnersConfig } from '../../shared/runners';
import { addRunnerRoutes } from './http/runners-routes';
import { createDockerRunner } from './runners/docker/docker-runner';
import { createLocalRunner } from './runners/local-runner';
import { createRunnerSet } from './runners/runner-set';
import { loadRunnersConfig } from './runners/runners-file';

export interface Core {
  readonly repoRoot: string;
  readonly baseBranch: string;
  readonly tasks: TaskService;
  readonly events: EventsRepo;
  readonly bus: EventBus;
  readonly git: GitService;
  readonly agents: AgentRegistry;
  readonly governance: GovernanceService;
  /** Whether agents run confined here, and why not when they do not. */
  readonly sandbox: SandboxStatus;
  readonly http: HttpHost;
  /** Listens, then recovers interrupted tasks and starts scheduling. */
  listen(port: number, host: string): Promise<AddressInfo>;
  /** Stops agents (their tasks run again next time), closes the server, writes pending events, closes the database. */
  close(): Promise<void>;
}

export async function createCore(config: CoreConfig): Promise<Core> {
  const now = config.now ?? (() => new Date());
  const log = config.log ?? ((message: string) => process.stderr.write(`${message}\n`));

  // The sandbox probe starts bubblewrap twice: it runs while git answers the checks below, not after them.
  // It never rejects, so leaving it behind when a check refuses the configuration is harmless.
  const sandboxProbe = config.sandbox ? Promise.resolve(config.sandbox) : probeSandbox();

  // Everything that can refuse the configuration runs before anything is opened or started.
  const repository = await openRepository(config.repoPath);
  const repoRoot = repository.root;
  const deskId = await loadDeskId(config.dataDir);
  // The repository's node_modules/.bin comes last: it may supply an agent, never shadow one on PATH.
  const agents = createAgentRegistry({ ...config.agents, searchDirs: [...config.agents.searchDirs, binDir(repoRoot)] });
  if (!agents.get(config.defaultAgent)) throw unknownAgent(config.defaultAgent, agents.list().map((a) => a.id));
  const git = createGitService({
    repoRoot,
    repository,
    worktreesDir: join(config.dataDir, 'worktrees', shortHash(repoRoot)),
    hooksDir: join(config.dataDir, 'no-hooks'),
    stateDir: join(config.dataDir, 'git', shortHash(repoRoot)),
    deskId,
    now,
  });
  const baseBranch = config.baseBranch ?? await git.currentBranch();
  await git.assertUsableBase(baseBranch);

  // A broken policy file stops the host with one clear line, before anything is opened.
  const policyStore = createPolicyFileStore(config.dataDir);
  policyStore.load();
  const runnersConfig = config.runners !== undefined ? RunnersConfig.parse(config.runners) : loadRunnersConfig(config.dataDir);

  const sandboxStatus = await sandboxProbe;
  if (!sandboxStatus.available) log(`Agents run unsandboxed: ${sandboxStatus.reason} ${sandboxStatus.fix ?? ''}`.trim());

  const db = openDatabase(join(config.dataDir, 'desk.sqlite'), undefined, { nativeBinding: config.nativeBinding });
  const events = createEventsRepo(db, repoRoot, { ...(config.output?.capBytes !== undefined && { outputCapBytes: config.output.capBytes }) });
  const bus = createEventBus();
  const record = (taskId: string, attempt: number, event: TaskEvent) => bus.publish(events.append(taskId, attempt, event, now().toISOString()));

  const governance = createGovernanceService({ repo: createGovernanceRepo(db, repoRoot), policyStore, now });
  const tasksRepo = createTasksRepo(db, repoRoot);
  const sandbox = createTaskSandbox({
    status: sandboxStatus,
    dataDir: config.dataDir,
    // Found by openRepository above (absolute, symlinks resolved), with no ambient GIT_* variable to steer it.
    gitCommonDir: repository.commonDir,
    home: homedir(),
    policyFor: (agentId) => governance.policyFor(agentId),
    // The bridge to the allowlist proxy runs inside the sandbox on the Node that runs the scripted agent.
    allowlistNetwork: (request) => prepareAllowlistNetwork({ ...request, nodePath: config.agents.scripted.command }),
  });
  // One object: Settings changes `concurrency` through the task service, and the local runner's capacity follows it.
  const taskConfig = { concurrency: config.concurrency, defaultAgent: config.defaultAgent, baseBranch, clientVersion: config.appVersion };
  const runners = createRunnerSet([
    createLocalRunner({ sandbox, capacity: () => taskConfig.concurrency }),
    createDockerRunner({ config: runnersConfig.docker, deskId, repoRoot, gitCommonDir: repository.commonDir, policyFor: (agentId) => governance.policyFor(agentId) }),
  ], runnersConfig.default);
  const tasks = createTaskService({
    tasks: tasksRepo,
    transaction: (work) => db.transaction(work)(),
    workspace: createWorkspaceSetup({ repoRoot }),
    turns: createTurnsRepo(db, repoRoot),
    git,
    agents,
    gate: createGovernanceGate(governance, log),
    limits: (agentId) => {
      const { promptsPerHour, concurrentTasks } = governance.policyFor(agentId);
      return { ...(promptsPerHour !== undefined && { promptsPerHour }), ...(concurrentTasks !== undefined && { concurrentTasks }) };
    },
    record,
    run: runTask,
    sandbox,
    runners,
    now,
    config: taskConfig,
  });

  const router = createRouter();
  addApiRoutes(router, { tasks, events });
  const logins = createAgentLogins({
    agents, cwd: repoRoot, clientVersion: config.appVersion,
    record: (eventsId, event) => bus.publish(events.append(eventsId, 0, event, now().toISOString())),
  });
  addAgentRoutes(router, { agents, defaultAgent: config.defaultAgent, logins });
  addRunnerRoutes(router, { runners });
  addGovernanceRoutes(router, { governance, repoRoot, worktreeOf: (id) => tasksRepo.get(id)?.worktreePath });
  addBoardRoutes(router, { tasks, lastSeq: () => events.lastSeq(), fixedSettings: { serverName: config.serverName, repository: repoRoot, dataDir: config.dataDir, sandbox: sandboxStatus } });
  addAgentAssignmentRoutes(router, { tasks, serverName: config.serverName });
  addAgentProtocolRoutes(router, { tasks, bus, db, repoRoot, now });
  const http = createHttpHost({
    router,
    security: { token: config.token, allowedHosts: config.allowedHosts, allowedOrigins: config.allowedOrigins },
    eventsSocket: createEventsSocket({ bus, events }),
    resolveAgentToken: (token) => governance.agentForToken(token),
    staticUi: createStaticUi(config.uiDir),
    ...(config.checkAnswers && { checkAnswers: true }),
    log: (error) => log(`Request failed: ${error instanceof Error ? error.stack : String(error)}`),
  });

  let closed = false;
  let retention: EventRetention | undefined;
  return {
    repoRoot, baseBranch, tasks, events, bus, git, agents, governance, sandbox: sandboxStatus, http,
    async listen(port, host) {
      const address = await http.listen(port, host);
      await runners.sweep();
      await tasks.recover();
      tasks.start();
      retention = startEventRetention({ events, now, days: config.output?.retentionDays ?? DEFAULT_RETENTION_DAYS, log });
      retention.prune();
      return address;
    },
    async close() {
      if (closed) return;
      closed = true;
      retention?.stop();
      await tasks.shutdown();
      await logins.disposeAll();
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
