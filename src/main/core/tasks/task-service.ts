// Submitting, following up, answering, cancelling and scheduling tasks: load, ask the pure rules, save, record, start runs.
import type { TaskEvent } from '../../../shared/events';
import type { CapabilityMode } from '../../../shared/governance';
import type { OpenQuestion } from '../../../shared/questions';
import { FINISHED_STATUSES, type AnswerInput, type DependencyGate, type SubmitTask, type TaskDetail, type TaskSummary } from '../../../shared/task';
import type { AgentRegistry } from '../agents/agent-registry';
import type { AgentSession } from '../agents/agent-session';
import type { GitService } from '../git/git-service';
import type { TaskPatch, TaskRecord, TasksRepo } from '../store/tasks-repo';
import type { TurnRecord, TurnsRepo } from '../store/turns-repo';
import { createAgentRequests, type PermissionGate } from './agent-requests';
import { createTaskReview, type TaskReview } from './task-review';
import { recoverInterruptedTasks } from './task-recovery';
import { NO_FORGE_ACCESS, type ForgeAccess } from '../forge/forge-access';
import { createTaskProposals, type ProposalFields, type TaskProposals } from './task-proposals';
import { pickTasksToStart } from './scheduler';
import type { GraphNode, TaskGraph } from './task-graph';
import type { TaskListing } from './task-listing';
import { isDeskError } from '../../../shared/desk-error';
import type { PushAfterApprove } from '../../../shared/review';
import { agentRefused, dependencyCycle, taskBusy, taskNotFound, unknownAgent } from './task-errors';
import type { RunContext, RunOutcome } from './task-runner';
import { canTransition, isActive } from './task-state';
import { toDetail } from './task-view';
import { createTaskMemory, type QuietTasks } from './task-memory';
import { recordingPrompts } from './prompt-events';
import type { TaskSandbox } from '../sandbox/task-sandbox';
import type { WorkspaceSetup } from '../workspace/workspace-setup';
import { cleanUpWorktree } from './worktree-cleanup';
import { turnsOfTask } from './first-turn';
import { createTaskLock } from './task-locks';
import { dependenciesToMerge, retireInOtherRepo, sandboxFor, singleRepo, type TaskRepos } from './task-repos';
import type { RunnerKind } from '../../../shared/runners';
import type { RunnerSet } from '../runners/runner-set';
import { createStartHold, type AgentLimits } from './start-limits';
import { createTaskSettings, type TaskSettings } from './task-settings';

export interface TaskService extends TaskReview, TaskSettings {
  /** Replaces the tasks a queued task waits for; refuses a cycle (`dependency_cycle`) or a task that already started. */
  setDependencies(id: string, dependencies: string[]): Promise<TaskRecord>;
  /** Changes how many agents run at once and the agent a submission gets by default. */
  /** Queues a task; a task with the same id is cancelled and replaced. Throws `dependency_cycle`, `unknown_agent`. */
  submit(input: SubmitTask): Promise<TaskRecord>;
  /** Queues another turn for a task whose run is over; it ends in one more commit. Throws `task_busy` while it runs. */
  followUp(id: string, prompt: string): Promise<TaskRecord>;
  /** Answers the task's open question; the first answer wins. */
  answer(id: string, input: AnswerInput): OpenQuestion;
  setMode(id: string, modeId: string): Promise<void>;
  setConfigOption(id: string, configId: string, value: string | boolean): Promise<void>;
  /** Stops the task's agent (within about 3 s), answers its open questions with `cancelled`, marks it cancelled. */
  cancel(id: string): Promise<TaskRecord>;
  list(): TaskSummary[];
  /** The list kept in memory and serialized once per change: what `GET /` and `/api/tasks` send. */
  readonly listing: TaskListing;
  /** The dependency graph kept in memory (read-only), as the database has it. */
  readonly graph: Pick<TaskGraph, 'get' | 'nodes' | 'dependentsOf' | 'statusOf'>;
  summary(id: string): TaskSummary;
  /** The task's turns with their output (the detail leaves the agent's text out). Throws `task_not_found`. */
  turns(id: string): TurnRecord[];
  /** Throws `task_not_found`. */
  detail(id: string): TaskDetail;
  /** Re-queues tasks that were running when the desk stopped, ending agents they left behind. */
  recover(): Promise<void>;
  /** Starts scheduling (after the host is listening, so nothing runs half-started). */
  start(): void;
  /** Stops every agent; their tasks are re-queued to run again at the next start. */
  shutdown(): Promise<void>;
  /** Tasks proposed by agents (the desk's MCP server): propose, accept, dismiss. */
  readonly proposals: TaskProposals;
}

export type { AgentLimits };

export interface TaskServiceDeps {
  tasks: TasksRepo;
  turns: TurnsRepo;
  git: GitService;
  agents: AgentRegistry;
  gate: PermissionGate;
  limits?(agentId: string): AgentLimits;
  /** What the policy says of an agent's commands (`execute`), for the mode a self-sandboxing agent is confined in. */
  commandMode?(agentId: string): CapabilityMode;
  record(taskId: string, attempt: number, event: TaskEvent): void;
  run(context: RunContext): Promise<RunOutcome>;
  /** Sets up each new worktree as its repository asks (`.desk/config.json`). */
  workspace: WorkspaceSetup;
  /** A desk of several repositories: each task's git, setup and base branch by its `repo` (default: `git`, `workspace`). */
  repos?: TaskRepos;
  /** Runs `work` as one database transaction (all of it written, or none); settles once it is durable. */
  transaction?<T>(work: () => T): Promise<T>;
  /** Starts each run's processes confined to the task, where the machine allows it. */
  sandbox: Pick<TaskSandbox, 'isolate' | 'confines'>;
  /** Which running tasks' agents went quiet (their summaries say since when). */ quiet?: QuietTasks;
  /** Where agents may run (docs/runners.md); without it every task runs `local`, through `sandbox`. */
  runners?: RunnerSet;
  now(): Date;
  /** `dependenciesAfter`: what dependencies must reach for tasks that do not say (default `completed`); `pushAfterApprove`: what an approval pushes. */
  config: { concurrency: number; defaultAgent: string; baseBranch: string; clientVersion: string; dependenciesAfter?: DependencyGate; pushAfterApprove?: PushAfterApprove | null };
  /** Where pull and merge requests open (without it, opening one says so). */
  forges?: ForgeAccess;
}

interface ActiveRun { attempt: number; agent: string; runner: RunnerKind; controller: AbortController; done: Promise<void>; session?: AgentSession }

/** Rate limits free up with time, not with events: look again this often while anything is held back. */
const RATE_LIMIT_RECHECK_MS = 30_000;

export function createTaskService(deps: TaskServiceDeps): TaskService {
  const running = new Map<string, ActiveRun>();
  const withTaskLock = createTaskLock();
  let started = false;
  let stopping = false;
  let recheck: NodeJS.Timeout | undefined;

  const now = () => deps.now().toISOString();
  // The graph, the list and open questions live in memory; every write goes through them after the database.
  const { graph, listing, tasks, questions, summaryOf, record: recordEvent } = createTaskMemory({ ...deps, unsandboxed: (agent) => !deps.sandbox.confines(agent) });
  const turns = recordingPrompts(deps.turns, (id, event) => recordEvent(id, tasks.get(id)?.attempt ?? 0, event));
  const atomically = deps.transaction ?? (async <T>(work: () => T): Promise<T> => work());
  const repos = deps.repos ?? singleRepo({ git: deps.git, workspace: deps.workspace, baseBranch: deps.config.baseBranch });
  const requests = createAgentRequests({
    gate: deps.gate,
    questions,
    now: deps.now,
    record: (task, event) => recordEvent(task.id, task.attempt, event),
    setWaiting: (task, waiting) => {
      if (!isCurrent(task.id, task.attempt)) return;
      const target = waiting ? 'awaiting-input' : 'in-progress';
      if (tasks.get(task.id)?.status !== target) save(task.id, { status: target });
    },
  });

  function save(id: string, patch: TaskPatch): TaskRecord {
    const updated = tasks.update(id, { ...patch, updatedAt: now() });
    recordEvent(id, updated.attempt, { type: 'task', task: summaryOf(updated) });
    return updated;
  }

  function log(task: TaskRecord, text: string, level: 'info' | 'warn' | 'error' = 'info'): void {
    recordEvent(task.id, task.attempt, { type: 'log', level, source: 'desk', text });
  }

  function assertNoCycle(id: string, dependencies: readonly string[]): void {
    const cycle = graph.cycleFor(id, dependencies);
    if (cycle) throw dependencyCycle(cycle);
  }

  function mustGet(id: string): TaskRecord {
    const task = tasks.get(id);
    if (!task) throw taskNotFound(id);
    return task;
  }

  const heldBy = createStartHold({
    limits: (agent) => deps.limits?.(agent) ?? {}, countStartedSince: turns.countStartedSince, now: deps.now,
    running: () => running.values(), runnerHeld: (runner, there) => deps.runners?.heldBy(runner, there),
  });

  function schedule(): void {
    if (!started || stopping) return;
    let held = false;
    const mayStart = (task: GraphNode, picked: readonly GraphNode[]) => {
      const reason = heldBy(task, picked);
      held ||= reason !== undefined;
      return reason === undefined;
    };
    // Only queued tasks whose dependencies changed are looked at, not every task.
    // `concurrency` is the local runner's capacity; the others' capacities come on top (each checked by mayStart).
    const picked = pickTasksToStart(graph.readyCandidates(), graph.stateOf, running.size, deps.config.concurrency + (deps.runners?.extraCapacity() ?? 0), mayStart);
    for (const task of picked) startRun(mustGet(task.id));
    if (held && !recheck) recheck = setTimeout(() => { recheck = undefined; schedule(); }, RATE_LIMIT_RECHECK_MS).unref();
  }

  function startRun(task: TaskRecord): void {
    const attempt = task.attempt + 1;
    // The first run stores the first turn (and records its prompt): until now it was the task's own prompt.
    const turn = turns.latest(task.id) ?? turns.startOver(task.id, task.prompt, task.agent, task.submittedAt);
    const startedAt = now();
    turns.update(task.id, turn.turn, { status: 'running', startedAt });
    const record = save(task.id, { status: 'in-progress', attempt, startedAt, finishedAt: null, errorMessage: null, agentPid: null, noChanges: null });
    const controller = new AbortController();
    const run: ActiveRun = { attempt, agent: task.agent, runner: task.runner ?? 'local', controller, done: Promise.resolve() };
    const requestsOfRun = requests.forRun(record);
    const repo = repos.of(task.repo);
    const context: RunContext = {
      task: record,
      turn: { number: turn.turn, prompt: turn.prompt },
      signal: controller.signal,
      git: repo.git,
      branchOf: (id) => tasks.get(id)?.branch ?? repo.git.branchFor(id),
      dependenciesToMerge: dependenciesToMerge(record, (id) => tasks.get(id)),
      agents: deps.agents,
      clientVersion: deps.config.clientVersion,
      ...(deps.commandMode && { commandMode: deps.commandMode(task.agent) }),
      // Who the agent says it is shows on its card at once; the other facts of a run are the desk's own.
      update: (patch) => { if (isCurrent(task.id, attempt)) (patch.agentInfo ? save : tasks.update)(task.id, patch); },
      record: (event) => recordEvent(task.id, attempt, event),
      onSession: (session) => { run.session = session; },
      decidePermission: (request, worktree) => requestsOfRun.permission(request, worktree),
      elicit: (request) => requestsOfRun.elicitation(request, tasks.get(task.id)?.worktreePath ?? ''),
      authorizeFile: (access, worktree) => requestsOfRun.fileAccess(access, worktree),
      authorizeCommand: (commandLine, worktree, commandCwd) => requestsOfRun.terminalCommand(commandLine, worktree, commandCwd),
      isolate: (request) => {
        const placed = repo.gitCommonDir === undefined ? request : { ...request, gitCommonDir: repo.gitCommonDir };
        return deps.runners ? deps.runners.isolate(run.runner, placed) : deps.sandbox.isolate(placed);
      },
      workspace: repo.workspace,
      cleanUpPrevious: () => cleanUp(record),
    };
    run.done = deps.run(context)
      .catch((error: unknown): RunOutcome => ({ status: 'error', message: error instanceof Error ? error.message : String(error) }))
      .then((outcome) => finishRun(task.id, attempt, turn.turn, outcome));
    running.set(task.id, run);
  }

  function isCurrent(id: string, attempt: number): boolean {
    const current = tasks.get(id);
    return current !== undefined && current.attempt === attempt && isActive(current.status);
  }

  function finishRun(id: string, attempt: number, turn: number, outcome: RunOutcome): void {
    if (running.get(id)?.attempt === attempt) running.delete(id);
    if (!isCurrent(id, attempt)) return;
    const current = tasks.get(id) as TaskRecord;
    if (stopping) {
      save(id, { status: 'queued', agentPid: null });
      log(current, 'The desk shut down while this task ran; it will run again at the next start.', 'warn');
      return;
    }
    const finishedAt = now();
    turns.update(id, turn, { status: outcome.status, finishedAt, ...(outcome.output && { output: outcome.output }), ...(outcome.status === 'completed' && outcome.commit !== undefined && { commit: outcome.commit }) });
    // A turn that changed nothing keeps the commit of an earlier turn (the branch's tip); a first turn has none.
    if (outcome.status === 'completed') save(id, { status: 'completed', commit: outcome.commit ?? (turn === 1 ? null : undefined), noChanges: outcome.noChanges ?? null, finishedAt });
    else if (outcome.status === 'error') log(save(id, { status: 'error', errorMessage: outcome.message, finishedAt }), outcome.message, 'error');
    else save(id, { status: 'cancelled', finishedAt });
    schedule();
  }

  /** Aborts the task's run, if any, and waits until its agent is gone. */
  async function stopRun(id: string): Promise<void> {
    questions.cancelAll(id);
    const run = running.get(id);
    if (!run) return;
    run.controller.abort();
    await run.done;
  }

  /** What the agent's own protocol throws (a JSON-RPC error, a broken answer) reaches people as the agent's refusal. */
  function refusedByAgent(error: unknown): never {
    throw isDeskError(error) ? error : agentRefused(error);
  }

  function liveSession(id: string): AgentSession {
    mustGet(id);
    const session = running.get(id)?.session;
    if (!session) throw taskBusy(`Task ${id} has no agent running right now.`);
    return session;
  }

  async function submit(input: SubmitTask, proposal?: ProposalFields): Promise<TaskRecord> {
    const agent = input.agent ?? deps.config.defaultAgent;
    const repo = repos.of(input.repo);
    if (!deps.agents.has(agent)) throw unknownAgent(agent, deps.agents.list().map((a) => a.id));
    const runner = deps.runners?.choose(input.runner) ?? 'local';
    assertNoCycle(input.id, input.dependencies);
    return withTaskLock(input.id, async () => {
      const previous = tasks.get(input.id);
      if (previous) {
        await stopRun(input.id);
        await retireInOtherRepo(previous, repo.name, repos);
        // The graph may have changed while the old run was stopping.
        assertNoCycle(input.id, input.dependencies);
      }
      const at = now();
      // The task's one row (its first turn is its prompt until it starts: first-turn.ts), committed with this
      // event-loop turn's other writes; answered once durable. A replaced submission's turns go with it.
      const record = await atomically(() => {
        if (previous) turns.forget(input.id);
        return tasks.putSubmission({
          id: input.id, prompt: input.prompt, dependencies: input.dependencies, agent, status: 'queued', review: 'pending',
          submittedAt: at, updatedAt: at, baseBranch: repo.baseBranch, attempt: previous?.attempt ?? 0, ...(repo.name !== undefined && { repo: repo.name }),
          ...((input.after ?? deps.config.dependenciesAfter) === 'approved' && { after: 'approved' as const }), ...proposal,
          ...(runner !== 'local' && { runner }),
        });
      });
      recordEvent(record.id, record.attempt, { type: 'task', task: summaryOf(record) });
      if (previous) log(record, `Replaced the earlier submission (it was ${previous.status}); its branch is archived when this run starts.`);
      schedule();
      return tasks.get(input.id) as TaskRecord;
    });
  }

  function followUp(id: string, prompt: string): Promise<TaskRecord> {
    return withTaskLock(id, async () => {
      const task = mustGet(id);
      if (!FINISHED_STATUSES.includes(task.status)) throw taskBusy(`Task ${id} is ${task.status}; send a follow-up once its agent has finished.`);
      if (!task.worktreePath) throw taskBusy(`Task ${id} never started, so there is no session to follow up; resubmit it instead.`);
      repos.of(task.repo); // its repository must still be open
      turns.add(id, prompt, task.agent, now());
      const queued = save(id, { status: 'queued', errorMessage: null, finishedAt: null });
      log(queued, 'Follow-up queued.');
      schedule();
      return tasks.get(id) as TaskRecord;
    });
  }

  const cleanUp = (task: TaskRecord) => cleanUpWorktree(task, {
    agents: deps.agents, sandbox: sandboxFor(deps.sandbox, repos.of(task.repo)), workspace: repos.of(task.repo).workspace,
    record: (event) => recordEvent(task.id, task.attempt, event), log: (text, level) => log(task, text, level),
  });

  const review = createTaskReview({ gitOf: (task) => repos.of(task.repo).git, mustGet, save, log, withTaskLock, submit, followUp, cleanUp, now: deps.now, pushAfterApprove: () => deps.config.pushAfterApprove ?? null,
    forges: deps.forges ?? NO_FORGE_ACCESS, repoConfigOf: (task) => repos.of(task.repo).workspace.config(), withOpenPullRequests: () => tasks.list().filter((task) => task.pullRequest?.state === 'open') });
  const proposals = createTaskProposals({ find: (id) => tasks.get(id), mustGet, submit, save, log, withTaskLock, schedule, gate: deps.gate, now });

  return {
    ...review,
    async approve(id) {
      const approved = await review.approve(id);
      // Tasks that wait for their dependencies' approval may start now.
      schedule();
      return approved;
    },
    submit: (input) => submit(input),
    followUp,
    proposals,
    setDependencies(id, dependencies) {
      return withTaskLock(id, async () => {
        const task = mustGet(id);
        if (task.status !== 'queued') throw taskBusy(`Task ${id} is ${task.status}; its dependencies change only while it waits.`);
        const unique = [...new Set(dependencies)];
        assertNoCycle(id, unique);
        const updated = save(id, { dependencies: unique });
        log(updated, unique.length > 0 ? `Now waits for ${unique.join(', ')}.` : 'Waits for nothing now.');
        schedule();
        return updated;
      });
    },

    ...createTaskSettings(deps.config, { agents: deps.agents, changed: schedule }),

    answer(id, input) {
      mustGet(id);
      const { questionId, ...answer } = input;
      return questions.answer(id, questionId, answer);
    },

    setMode: async (id, modeId) => liveSession(id).setMode(modeId).catch(refusedByAgent),
    setConfigOption: async (id, configId, value) => liveSession(id).setConfigOption(configId, value).catch(refusedByAgent),

    cancel(id) {
      return withTaskLock(id, async () => {
        mustGet(id);
        await stopRun(id);
        const current = tasks.get(id) as TaskRecord;
        if (!canTransition(current.status, 'cancelled')) return current;
        const cancelled = save(id, { status: 'cancelled', finishedAt: now(), agentPid: null });
        const turn = turns.latest(id);
        if (turn && (turn.status === 'pending' || turn.status === 'running')) turns.update(id, turn.turn, { status: 'cancelled', finishedAt: now() });
        schedule();
        return cancelled;
      });
    },

    list: () => listing.list(),
    listing,
    graph,
    summary: (id) => listing.get(id) ?? summaryOf(mustGet(id)),
    turns: (id) => turnsOfTask(mustGet(id), turns.list(id)),

    detail(id) {
      const task = mustGet(id);
      return toDetail(task, {
        unsandboxed: !deps.sandbox.confines(task.agent),
        stateOf: graph.stateOf, openQuestions: questions.forTask(id), turns: turnsOfTask(task, turns.list(id)),
        ...(task.status === 'queued' && { heldBy: heldBy(task, [], false) }),
      });
    },

    recover: () => recoverInterruptedTasks({ graph, mustGet, agents: deps.agents, gate: deps.gate, save, log }),

    start() {
      started = true;
      schedule();
    },

    async shutdown() {
      stopping = true;
      if (recheck) clearTimeout(recheck);
      const ids = [...running.keys()];
      for (const id of ids) questions.cancelAll(id);
      const runs = [...running.values()];
      for (const run of runs) run.controller.abort();
      await Promise.all(runs.map((run) => run.done));
    },
  };
}

