// The composition root: builds every service of the core from a config and hands them out. No singletons.
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { TaskEvent } from '../../shared/events';
import type { TaskStatus, TaskSummary } from '../../shared/task';
import { binDir } from './agents/agent-catalog';
import { createAgentLogins } from './agents/agent-logins';
import { createAgentRegistry, type AgentRegistry } from './agents/agent-registry';
import type { CoreConfig } from './core-config';
import { createEventBus, type EventBus } from './events/event-bus';
import { DEFAULT_RETENTION_DAYS, startEventRetention, type EventRetention } from './events/event-retention';
import { loadDeskId } from './git/desk-id';
import { openRepository } from './git/repository';
import type { GitService } from './git/git-service';
import { createGovernanceGate } from './governance/governance-gate';
import { createGovernanceRepo } from './governance/governance-repo';
import { createGovernanceService, type GovernanceService } from './governance/governance-service';
import { createPolicyFileStore } from './governance/policy-file';
import { addAgentRoutes } from './http/agents-routes';
import { addBoardRoutes } from './http/board-routes';
import { addBaseUpdateRoutes } from './http/base-update-routes';
import { addReviewRoutes } from './http/review-routes';
import { addDevServerRoutes } from './http/dev-server-routes';
import { createDeskDevServers } from './dev-server/desk-dev-servers';
import { createViewedRepo } from './store/viewed-repo';
import { createStaticUi } from './http/static-ui';
import { addPullRequestRoutes } from './http/pull-request-routes';
import { createForgeAccess } from './forge/forge-access';
import { homeFileReader } from './forge/home-files';
import { PULL_REQUEST_POLL_MS, startPullRequestPoller, type PullRequestPoller } from './tasks/pull-request-poller';
import { addGovernanceRoutes } from './http/governance-routes';
import { addAgentAssignmentRoutes } from './http/aa-routes';
import { addAgentProtocolRoutes } from './http/ap-routes';
import { addApiRoutes } from './http/api-routes';
import { addReposRoutes } from './http/repos-routes';
import { createEventsSocket } from './http/events-socket';
import { createRouter } from './http/router';
import { createHttpHost, type HttpHost } from './http/server';
import { openDatabase } from './store/database';
import { createGroupCommit } from './store/group-commit';
import { createEventsRepo, type EventsRepo } from './store/events-repo';
import { createTasksRepo } from './store/tasks-repo';
import { createTurnsRepo } from './store/turns-repo';
import { createTaskGrantsRepo } from './store/task-grants-repo';
import { createDeferredWrites, deferringTasks, deferringTurns } from './store/deferred-writes';
import { createDiskWatch } from './host/disk-watch';
import { fullDiskGuard } from './store/refuse-when-full';
import { diskFullRun } from './tasks/disk-full-run';
import { unknownAgent } from './tasks/task-errors';
import { runTask } from './tasks/task-runner';
import { createRunTimings, timedRun, type RunTimings } from './tasks/run-timings';
import { prepareAllowlistNetwork } from './sandbox/network/sandbox-network';
import { prepareMcpRelay } from './sandbox/network/mcp-relay';
import { runFolderRootsFor } from './sandbox/run-folders';
import { createNetworkBridge } from './sandbox/network/network-bridge';
import { rememberedSandboxProbe } from './sandbox/remembered-sandbox-probe';
import { createMachineCheck } from './sandbox/machine-check';
import { answeredProbe } from './host/remembered-probe';
import { createTaskSandbox } from './sandbox/task-sandbox';
import { createStateLayers } from './sandbox/state-layers';
import { findNamespaceTools } from './sandbox/state-namespace';
import { createSpareProcesses } from './host/spare-processes';
import { startTaskLimits } from './sandbox/limits/desk-limits';
import { createDeskReposRepo } from './store/desk-repos-repo';
import { createRepoSet, openRepo, type RepoSet } from './repos/repo-set';
import type { SandboxStatus } from '../../shared/sandbox';
import { createTaskService, type TaskService } from './tasks/task-service';
import { taskRepoOf } from './tasks/task-repos';
import { createQuietTasks } from './tasks/quiet-tasks';
import { watchedRun } from './tasks/watched-run';
import { createAgentNotes } from './agents/agent-notes';
import { agentCacheDir, createAgentInstalls } from './agents/agent-installs';
import { createAgentTests } from './agents/agent-tests';
import { createMcpAccess } from './mcp/mcp-access';
import { createMcpEndpoint } from './mcp/mcp-endpoint';
import { createMcpTools } from './mcp/mcp-tools';
import { addProposalRoutes } from './http/proposal-routes';
import { RunnersConfig } from '../../shared/runners';
import { addRunnerRoutes } from './http/runners-routes';
import { addDiskUseRoutes } from './http/disk-use-routes';
import { closeDeskLayers, layersDiskUse, openDeskLayers, sweepLayersAtStart } from './workspace/desk-layers';
import { createDockerRunner } from './runners/docker/docker-runner';
import { createLocalRunner } from './runners/local-runner';
import { createRunnerSet } from './runners/runner-set';
import { clusterHosts, loadRunnersConfig } from './runners/runners-file';

export interface Core {
  readonly repoRoot: string;
  readonly baseBranch: string;
  readonly tasks: TaskService;
  readonly events: EventsRepo;
  readonly bus: EventBus;
  /** The default repository's git service (see `repos` for every open repository's). */
  readonly git: GitService;
  /** The repositories this desk works in, the default first. */
  readonly repos: RepoSet;
  readonly agents: AgentRegistry;
  readonly governance: GovernanceService;
  /** Whether agents run confined here, and why not when they do not. */
  readonly sandbox: SandboxStatus;
  readonly http: HttpHost;
  /** When the recent runs reached each stage (worktree, sandbox, agent, handshake, turn, commit). */
  readonly runTimings: RunTimings;
  /**
   * Where this machine's programs see a task's files: its worktree, or for a worktree that is a layer the view through
   * the namespace that holds it (mounted now, if it was not). undefined when the task has no worktree.
   */
  worktreeView(taskId: string): Promise<string | undefined>;
  /** Listens, then recovers interrupted tasks and starts scheduling. */
  listen(port: number, host: string): Promise<AddressInfo>;
  /** Stops agents (their tasks run again next time), closes the server, writes pending events, closes the database. */
  close(): Promise<void>;
}

export async function createCore(config: CoreConfig): Promise<Core> {
  const now = config.now ?? (() => new Date());
  const log = config.log ?? ((message: string) => process.stderr.write(`${message}\n`));

  // The sandbox probe (one bubblewrap trial run; serve.js starts it before the host's code loads, or recalls the last
  // start's answer and leaves the trial to the machine check below) runs while the checks below are made and the
  // database opens. It never rejects, so leaving it behind when a check refuses the configuration is harmless.
  const sandboxProbe = config.sandboxProbe ?? (config.sandbox ? answeredProbe(config.sandbox) : rememberedSandboxProbe(undefined));
  const limitsProbe = startTaskLimits({ dataDir: config.dataDir, log, ...(config.probeMemory && { memory: config.probeMemory }) });

  // Everything that can refuse the configuration runs before anything is opened or started.
  const repository = await openRepository(config.repoPath, config.repositoryDiscovery);
  const repoRoot = repository.root;
  const deskId = await loadDeskId(config.dataDir);
  // The repository's node_modules/.bin comes last: it may supply an agent, never shadow one on PATH.
  // Agents installed from the board (the desk's agent cache) come before the repository's own.
  const agents = createAgentRegistry({ ...config.agents, searchDirs: [...config.agents.searchDirs, binDir(agentCacheDir(config.dataDir)), binDir(repoRoot)] });
  if (!agents.get(config.defaultAgent)) throw unknownAgent(config.defaultAgent, agents.list().map((a) => a.id));
  // Every repository named on the command line must open before anything starts: a typo stops the host here.
  const moreRepos = await Promise.all((config.moreRepos ?? []).map(async (path) => (await openRepository(path)).root));
  // A broken policy file stops the host with one clear line, before anything is opened.
  const policyStore = createPolicyFileStore(config.dataDir);
  // Read once, here; with no file the defaults are made when an agent first needs them (schemas not built at start).
  const storedPolicy = policyStore.loadIfPresent();
  const runnersConfig = config.runners !== undefined ? RunnersConfig.parse(config.runners) : loadRunnersConfig(config.dataDir);

  // Worktrees as layers over one snapshot per base commit (sandbox/task-layers.ts, workspace/snapshot-store.ts).
  // A task's holders and launcher start from processes that wait for them, not from a fork of the desk (host/spare-processes.ts).
  const spares = createSpareProcesses({ count: 3 });
  const layers = config.layers === 'never' ? undefined : openDeskLayers(config.dataDir, config.layers ?? 'auto', log, spares);
  const opener = { dataDir: config.dataDir, deskId, now, spares, ...(layers && { layers }) };
  const first = await openRepo(opener, { path: repoRoot, repository, isDefault: true, ...(config.baseBranch !== undefined && { baseBranch: config.baseBranch }) })
    // Refused (no usable base branch): what was started for it ends before the refusal is said.
    .catch(async (error: unknown) => { spares.close(); await closeDeskLayers(layers); throw error; });
  const { git, baseBranch } = first;

  const db = openDatabase(join(config.dataDir, 'desk.sqlite'), undefined, { nativeBinding: config.nativeBinding });
  const groupCommit = createGroupCommit(db, { onFailedCommit: (error) => log(`A database commit failed; the submissions in it were refused: ${error instanceof Error ? error.message : String(error)}`) });
  // A full disk under the data dir: writes wait in memory (bounded) and land once there is room; the desk stays up.
  const disk = createDiskWatch({ dataDir: config.dataDir, now, log, queuedEvents: () => events.queued() });
  const events = createEventsRepo(db, repoRoot, {
    ...(config.output?.capBytes !== undefined && { outputCapBytes: config.output.capBytes }),
    onWriteFailed: (error, kept) => (kept ? disk.full('task events') : log(`Task events could not be stored and were dropped: ${error instanceof Error ? error.message : String(error)}`)),
    onWritten: () => disk.written('task events'),
  });
  const deferred = createDeferredWrites(db, {
    onFull: () => disk.full('task records'),
    onWritten: () => disk.written('task records'),
    onDropped: (error) => log(`A task record waiting for room could not be written: ${error instanceof Error ? error.message : String(error)}`),
  });
  // Every other SQLite writer reached from HTTP refuses a full disk as `disk_full` (503), saying what and where.
  const guard = fullDiskGuard(disk);
  const bus = createEventBus();
  const record = (taskId: string, attempt: number, event: TaskEvent) => bus.publish(events.append(taskId, attempt, event, now().toISOString()));
  // A task that ended has written all its output: its burst need not stay on disk as write-ahead log.
  bus.subscribe(({ event }) => {
    if (event.type === 'task' && ENDED.has(event.task.status)) events.settle();
  });

  const repos = await createRepoSet({ opener, first, store: guard(createDeskReposRepo(db, repoRoot), "the desk's list of repositories"), log }, moreRepos);
  // Layers a crash (or a worktree removed while the desk was down) left behind go, in the background: nothing waits for it.
  const layerSweep = layers && sweepLayersAtStart(layers, repos, log);
  const governance = createGovernanceService({
    ...(layers && { reachOf: (worktree: string) => layers.taskLayers.reachOf(worktree) }),
    repo: guard(createGovernanceRepo(db, repoRoot), 'the governance audit log'), policyStore, now,
    initialPolicy: () => storedPolicy ?? policyStore.defaults(),
  });
  const tasksRepo = deferringTasks(createTasksRepo(db, repoRoot, { defaultRepo: repos.default.name }), deferred);
  // Awaited only here: opening the database and the parts above take place while bubblewrap's trial runs finish.
  const deskLimits = await limitsProbe;
  const taskLimits = deskLimits.limits;
  // The desk's own copy: the machine check brings it up to date in place, for everything that reads it.
  const sandboxStatus: SandboxStatus = { ...await sandboxProbe.first, limits: taskLimits.status };
  const machineCheck = createMachineCheck({ sandbox: sandboxProbe, limits: deskLimits, status: sandboxStatus, log });
  if (!sandboxStatus.available) log(`Agents run unsandboxed: ${sandboxStatus.reason} ${sandboxStatus.fix ?? ''}`.trim());
  // Each task's own layer of its agent's state, for the local sandbox and the docker runner alike.
  const stateLayers = createStateLayers({ dataDir: config.dataDir, tools: findNamespaceTools(process.env.PATH ?? ''), spares });
  const sandbox = createTaskSandbox({
    status: sandboxStatus,
    spares,
    stateLayers,
    ...(layers && { taskLayers: layers.taskLayers }),
    dataDir: config.dataDir,
    runFolders: runFolderRootsFor(config.dataDir, { env: process.env, uid: process.getuid?.() }),
    // Found by openRepository above (absolute, symlinks resolved), with no ambient GIT_* variable to steer it.
    gitCommonDir: repository.commonDir,
    home: homedir(),
    policyFor: (agentId) => governance.policyFor(agentId),
    allowlistNetwork: prepareAllowlistNetwork,
    mcpRelay: prepareMcpRelay,
    // Inside a Node agent's own Node, else a wrapper on the Node that runs the scripted agent.
    bridge: createNetworkBridge({ nodePath: config.agents.scripted.command }),
    limits: taskLimits,
    machineChecked: machineCheck.done,
    log,
  });
  // The MCP server agents reach with their task's token; its tools act through the task service and governance.
  const mcp = createMcpAccess({
    endpoint: () => createMcpEndpoint({ tools: createMcpTools({ tasks, governance }), version: config.appVersion }),
    callerOf: (taskId) => {
      const task = tasksRepo.get(taskId);
      return task?.worktreePath === undefined ? undefined : { taskId, agentId: task.agent, worktree: task.worktreePath };
    },
  });
  const quiet = createQuietTasks();
  const agentNotes = createAgentNotes();
  // One object: Settings changes `concurrency` through the task service, and the local runner's capacity follows it.
  const taskConfig = { concurrency: config.concurrency, defaultAgent: config.defaultAgent, baseBranch, clientVersion: config.appVersion, ...(config.judgeTimeoutMs !== undefined && { judgeTimeoutMs: config.judgeTimeoutMs }) };
  // The cluster's door and runner are loaded only on a desk that uses them.
  let listeningUrl: string | undefined;
  const cluster = runnersConfig.cluster.enabled ? await import('./runners/cluster/cluster-setup') : undefined;
  const runnerGate = cluster?.createRunnerGate();
  const runners = createRunnerSet([
    createLocalRunner({ sandbox, capacity: () => taskConfig.concurrency }),
    createDockerRunner({
      config: runnersConfig.docker, deskId, dataDir: config.dataDir, repoRoot, gitCommonDir: repository.commonDir, policyFor: (agentId) => governance.policyFor(agentId),
      stateLayers, home: homedir(), ...(layers && { taskLayers: layers.taskLayers }),
    }),
    ...(cluster && runnerGate ? [cluster.createClusterRunner({
      config: runnersConfig.cluster, deskId, dataDir: config.dataDir, gitCommonDir: repository.commonDir, gate: runnerGate,
      listeningUrl: () => listeningUrl, policyFor: (agentId) => governance.policyFor(agentId),
    })] : []),
  ], runnersConfig.default);
  const runTimings = createRunTimings(bus.subscribe);
  const grants = guard(createTaskGrantsRepo(db, repoRoot), 'the "Always allow" answers');
  const tasks = createTaskService({
    tasks: tasksRepo,
    transaction: (work) => groupCommit.write(work).catch((error: unknown) => disk.refuse('the submission', error)),
    workspace: first.workspace,
    repos: { of: (name) => taskRepoOf(name === undefined ? repos.default : repos.get(name)) },
    turns: deferringTurns(createTurnsRepo(db, repoRoot), deferred),
    git,
    agents,
    gate: createGovernanceGate(governance, log),
    grants,
    commandMode: (agentId) => governance.policyFor(agentId).capabilities.execute ?? 'ask',
    limits: (agentId) => {
      const { promptsPerHour, concurrentTasks } = governance.policyFor(agentId);
      return { ...(promptsPerHour !== undefined && { promptsPerHour }), ...(concurrentTasks !== undefined && { concurrentTasks }) };
    },
    record,
    run: timedRun(mcp.wrapRun(watchedRun(diskFullRun(runTask, {
      dataDir: config.dataDir, repoGitDirOf: (task) => (repos.find(task.repo ?? '') ?? repos.default).repository.commonDir,
      ...(layers && { writesOf: (worktree: string) => layers.taskLayers.upperOf(worktree), layersDir: layers.taskLayers.dir }),
    }), { quiet, notes: agentNotes })), runTimings),
    quiet,
    sandbox,
    runners,
    now,
    config: taskConfig,
    // The desk's environment reaches the forges' APIs and nothing else: agents get theirs from the agent catalog.
    forges: createForgeAccess({ env: config.env ?? {}, readHomeFile: homeFileReader(config.home ?? homedir()), fetch: (url, init) => fetch(url, init) }),
    attentionGlobs: () => governance.getPolicy().attentionGlobs,
  });

  // A task going quiet or speaking again reaches the board as its new summary.
  quiet.onChange((id) => { const task = tasksRepo.get(id); if (task) record(id, task.attempt, { type: 'task', task: tasks.summary(id) }); });
  // A task in review with a commit not read yet: which of its files run on the person's machine is read once, for its card.
  const noteAttention = (id: string) => tasks.noteAttention(id).catch((error: unknown) => log(`Could not read which files of task ${id} need attention: ${error instanceof Error ? error.message : String(error)}`));
  const unread = (task: TaskSummary) => task.status === 'completed' && task.review === 'pending' && task.commit !== undefined && task.attention === undefined;
  bus.subscribe(({ event }) => {
    if (event.type === 'task' && unread(event.task)) void noteAttention(event.task.id);
  });
  const router = createRouter();
  addApiRoutes(router, { tasks, events });
  const logins = createAgentLogins({
    agents, cwd: repoRoot, clientVersion: config.appVersion,
    record: (eventsId, event) => bus.publish(events.append(eventsId, 0, event, now().toISOString())),
  });
  const installs = createAgentInstalls({ agents, dataDir: config.dataDir, env: process.env, now, record: (eventsId, event) => bus.publish(events.append(eventsId, 0, event, now().toISOString())) });
  const agentTests = createAgentTests({ agents, dataDir: config.dataDir, clientVersion: config.appVersion, now });
  addAgentRoutes(router, { agents, defaultAgent: config.defaultAgent, logins, notes: agentNotes, installs, tests: agentTests });
  addRunnerRoutes(router, { runners });
  addDiskUseRoutes(router, { measure: () => layersDiskUse(config.dataDir, layers) });
  addGovernanceRoutes(router, {
    governance, repoRoot, worktreeOf: (id) => tasksRepo.get(id)?.worktreePath, alwaysAllowAnswers: () => grants.list(),
    sandboxViewOf: (id) => { const spec = agents.get(id); return spec && sandbox.viewOf(spec); },
  });
  addBoardRoutes(router, { tasks, lastSeq: () => events.lastSeq(), fixedSettings: { serverName: config.serverName, repository: repoRoot, dataDir: config.dataDir, sandbox: sandboxStatus }, quiet, disk });
  addBaseUpdateRoutes(router, { tasks });
  addReviewRoutes(router, { tasks, viewed: guard(createViewedRepo(db, repoRoot), "the diff's viewed marks"), now });
  addPullRequestRoutes(router, { tasks });
  addAgentAssignmentRoutes(router, { tasks, serverName: config.serverName, repos });
  addReposRoutes(router, { repos, tasks });
  addAgentProtocolRoutes(router, {
    tasks, bus, db, repoRoot, repoRoots: () => repos.list().map((repo) => repo.root), now, guard,
    ...(layers && { reachOf: async (worktree: string) => (await layers.taskLayers.open(worktree))?.deskPath }),
  });
  addProposalRoutes(router, { tasks });
  // A task's dev server runs confined like its agent; it ends with the task's cancel, rejection or archiving.
  const devServers = createDeskDevServers({ tasks: tasksRepo, repos, agents, sandbox, record, log, nodePath: config.agents.scripted.command });
  bus.subscribe(({ event }) => { if (event.type === 'task') devServers.taskChanged(event.task); });
  addDevServerRoutes(router, { devServers });
  const http = createHttpHost({
    router,
    // The address cluster containers are told to call is one the desk answers to.
    security: { token: config.token, allowedHosts: [...config.allowedHosts, ...clusterHosts(runnersConfig)], allowedOrigins: config.allowedOrigins },
    eventsSocket: createEventsSocket({ bus, events }),
    resolveAgentToken: (token) => governance.agentForToken(token),
    mcp,
    ...(runnerGate && { runnerGate }),
    staticUi: createStaticUi(config.uiDir),
    ...(config.checkAnswers && { checkAnswers: true }),
    log: (error) => log(`Request failed: ${error instanceof Error ? error.stack : String(error)}`),
  });

  let closed = false;
  let machineCheckTimer: NodeJS.Timeout | undefined;
  let retention: EventRetention | undefined;
  let poller: PullRequestPoller | undefined;
  return {
    repoRoot, baseBranch, tasks, events, bus, git, repos, agents, governance, sandbox: sandboxStatus, http, runTimings,
    async worktreeView(taskId) {
      const path = tasksRepo.get(taskId)?.worktreePath;
      if (path === undefined) return undefined;
      const layer = await layers?.taskLayers.open(path);
      return layer ? layer.deskPath(path) : path;
    },
    async listen(port, host) {
      const address = await http.listen(port, host);
      mcp.listening(address);
      // A desk listening on every address is reached by a container on this machine's network over loopback.
      const reachable = ['0.0.0.0', '::'].includes(address.address) ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
      listeningUrl = `http://${reachable}:${address.port}`;
      await runners.sweep();
      await tasks.recover();
      tasks.start();
      // Tasks that reached review before the desk read attention (or while it was down): read once, one after another.
      void (async () => {
        for (const task of tasks.list().filter(unread)) {
          if (closed) return;
          await noteAttention(task.id);
        }
      })();
      // A start from remembered answers checks them once its first requests are answered; a task's run asks sooner.
      machineCheckTimer = setTimeout(() => void machineCheck.done(), MACHINE_CHECK_AFTER_MS);
      machineCheckTimer.unref();
      retention = startEventRetention({ events, now, days: config.output?.retentionDays ?? DEFAULT_RETENTION_DAYS, log });
      retention.prune();
      poller = startPullRequestPoller({
        anyOpen: () => tasks.list().some((task) => task.pullRequest?.state === 'open'),
        refreshAll: () => tasks.refreshOpenPullRequests(),
        intervalMs: config.pullRequestPollMs ?? PULL_REQUEST_POLL_MS,
        log,
      });
      // A request opened (or reopened) from now on arms the poller; it disarms itself once none is open.
      bus.subscribe(({ event }) => { if (event.type === 'task' && event.task.pullRequest?.state === 'open') poller?.wake(); });
      return address;
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(machineCheckTimer);
      retention?.stop();
      await devServers.stopAll();
      await poller?.stop();
      await tasks.shutdown();
      spares.close();
      sandbox.close();
      await layerSweep;
      await closeDeskLayers(layers);
      await logins.disposeAll();
      await installs.disposeAll();
      await http.close();
      events.close();
      // Still no room at shutdown: what waited is lost with this process; say how much rather than nothing.
      if (events.queued() > 0 || deferred.waiting() > 0) log(`The desk stopped while its disk was full: ${events.queued()} events and ${deferred.waiting()} task record changes were not written.`);
      deferred.stop();
      groupCommit.flush();
      db.close();
      // A trial under way makes and removes a group of its own: it ends before the desk's folders are removed.
      if (machineCheck.started) await machineCheck.done();
      taskLimits.close();
    },
  };
}

/** How long after listening a start from remembered answers runs the trials they stood for (machine-check.ts). */
const MACHINE_CHECK_AFTER_MS = 250;

const ENDED: ReadonlySet<TaskStatus> = new Set(['completed', 'error', 'cancelled']);
