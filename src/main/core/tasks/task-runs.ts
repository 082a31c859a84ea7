// Running tasks: which ready tasks start (scheduler, agent limits, runner capacity), what each run is given, what a
// finished run leaves on its task, and stopping runs (a cancel, a replacing submission, the desk shutting down).
import type { CapabilityMode } from '../../../shared/governance';
import type { RunnerKind } from '../../../shared/runners';
import type { AgentRegistry } from '../agents/agent-registry';
import type { AgentSession } from '../agents/agent-session';
import type { RunnerSet } from '../runners/runner-set';
import type { TaskSandbox } from '../sandbox/task-sandbox';
import type { BaseSnapshots } from '../workspace/base-snapshots';
import type { TaskGrantsRepo } from '../store/task-grants-repo';
import type { TaskRecord } from '../store/tasks-repo';
import { createAgentRequests, type PermissionGate } from './agent-requests';
import { pickTasksToStart } from './scheduler';
import { createStartHold, type AgentLimits } from './start-limits';
import { taskBusy } from './task-errors';
import type { GraphNode } from './task-graph';
import type { TaskRecords } from './task-records';
import { dependenciesToMerge, type TaskRepos } from './task-repos';
import type { RunContext, RunOutcome } from './task-runner';
import { isActive } from './task-state';
import { runnerLayerChoice } from '../workspace/layer-choice';

export interface TaskRuns {
  /** Starts the ready tasks there is room for (after `start`, until `shutdown`). */
  schedule(): void;
  /** Aborts the task's run, if any, and waits until its agent is gone; its open questions are answered `cancelled`. */
  stopRun(id: string): Promise<void>;
  /** The agent session of the task's run; `task_busy` when no agent runs for it. */
  liveSession(id: string): AgentSession;
  /** Why a queued task may not start now (its agent's limits, its runner's capacity), if anything holds it. */
  heldBy(task: { agent: string; runner?: RunnerKind }): string | undefined;
  start(): void;
  /** Stops every agent; their tasks are re-queued to run again at the next start. */
  shutdown(): Promise<void>;
}

export interface TaskRunsDeps {
  records: Pick<TaskRecords, 'tasks' | 'turns' | 'graph' | 'questions' | 'record' | 'save' | 'log' | 'mustGet' | 'now'>;
  gate: PermissionGate;
  /** "Always allow" answers kept for the rest of each task. */
  grants: Pick<TaskGrantsRepo, 'capabilitiesOf' | 'add'>;
  agents: AgentRegistry;
  repos: TaskRepos;
  sandbox: Pick<TaskSandbox, 'isolate'> & Partial<Pick<TaskSandbox, 'confines'>>;
  runners?: Pick<RunnerSet, 'isolate' | 'heldBy' | 'extraCapacity'> & Partial<Pick<RunnerSet, 'daemonHostOf'>> | undefined;
  run(context: RunContext): Promise<RunOutcome>;
  limits?(agentId: string): AgentLimits;
  commandMode?(agentId: string): CapabilityMode;
  /** Read at every round: Settings may change the concurrency while the desk runs. */
  config: { readonly concurrency: number; readonly clientVersion: string };
  /** The repository's cleanup in the task's worktree before a new run retires it. */
  cleanUp(task: TaskRecord): Promise<void>;
  /** An attempt's run started or ended (./task-attempts.ts); `tokens`: what its turn took, as its agent reported. */
  attemptChanged?(attempt: TaskRecord, facts?: { tokens?: number }): void;
  now(): Date;
  /** Told when a turn has ended and its outcome is saved (not when the desk shuts down). */
  onFinished?(id: string): void;
}

interface ActiveRun { attempt: number; agent: string; runner: RunnerKind; controller: AbortController; done: Promise<void>; session?: AgentSession; tokens?: number }

/** Rate limits free up with time, not with events: look again this often while anything is held back. */
const RATE_LIMIT_RECHECK_MS = 30_000;

export function createTaskRuns(deps: TaskRunsDeps): TaskRuns {
  const { tasks, turns, graph, questions, record, save, log, mustGet, now } = deps.records;
  const running = new Map<string, ActiveRun>();
  let started = false;
  let stopping = false;
  let recheck: NodeJS.Timeout | undefined;

  const requests = createAgentRequests({
    gate: deps.gate,
    grants: deps.grants,
    questions,
    now: deps.now,
    record: (task, event) => record(task.id, task.attempt, event),
    setWaiting: (task, waiting) => {
      if (!isCurrent(task.id, task.attempt)) return;
      const target = waiting ? 'awaiting-input' : 'in-progress';
      if (tasks.get(task.id)?.status !== target) save(task.id, { status: target });
    },
  });

  const heldBy = createStartHold({
    limits: (agent) => deps.limits?.(agent) ?? {}, countStartedSince: turns.countStartedSince, now: deps.now,
    running: () => running.values(), runnerHeld: (runner, there) => deps.runners?.heldBy(runner, there),
  });

  function schedule(): void {
    if (!started || stopping) return;
    let held = false;
    const mayStart = (task: GraphNode, picked: readonly GraphNode[]) => {
      // A task with attempts runs no agent itself until one is kept: its attempts are the tasks that run.
      const plan = tasks.get(task.id)?.attempts;
      if (plan && plan.chosen === undefined) return false;
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
    const current = save(task.id, { status: 'in-progress', attempt, startedAt, finishedAt: null, errorMessage: null, agentPid: null, noChanges: null, check: null });
    if (current.attemptOf) deps.attemptChanged?.(current);
    const controller = new AbortController();
    const run: ActiveRun = { attempt, agent: task.agent, runner: task.runner ?? 'local', controller, done: Promise.resolve() };
    const requestsOfRun = requests.forRun(current);
    const repo = deps.repos.of(task.repo);
    const context: RunContext = {
      task: current,
      turn: { number: turn.turn, prompt: turn.prompt },
      signal: controller.signal,
      git: repo.git,
      branchOf: (id) => tasks.get(id)?.branch ?? repo.git.branchFor(id),
      dependenciesToMerge: dependenciesToMerge(current, (id) => tasks.get(id)),
      agents: deps.agents,
      clientVersion: deps.config.clientVersion,
      ...(deps.commandMode && { commandMode: deps.commandMode(task.agent) }),
      // Who the agent says it is shows on its card at once; the other facts of a run are the desk's own.
      update: (patch) => { if (isCurrent(task.id, attempt)) (patch.agentInfo ? save : tasks.update)(task.id, patch); },
      record: (event) => {
        if (event.type === 'agent' && event.update.kind === 'turn-usage') run.tokens = (run.tokens ?? 0) + event.update.totalTokens;
        record(task.id, attempt, event);
      },
      onSession: (session) => { run.session = session; },
      decidePermission: (request, worktree) => requestsOfRun.permission(request, worktree),
      elicit: (request) => requestsOfRun.elicitation(request, tasks.get(task.id)?.worktreePath ?? ''),
      authorizeFile: (access, worktree) => requestsOfRun.fileAccess(access, worktree),
      authorizeCommand: (commandLine, worktree, commandCwd) => requestsOfRun.terminalCommand(commandLine, worktree, commandCwd),
      isolate: async (request) => {
        const placed = repo.gitCommonDir === undefined ? request : { ...request, gitCommonDir: repo.gitCommonDir };
        // A turn or a check may use git: a layered worktree's index is brought to the desk's last commit first.
        await repo.git.readyIndex(request.worktree);
        return deps.runners ? deps.runners.isolate(run.runner, placed) : deps.sandbox.isolate(placed);
      },
      workspace: repo.workspace,
      cleanUpPrevious: () => deps.cleanUp(current),
      // The local runner's agent is a process the desk starts in the worktree: its launcher can check the files out,
      // and the desk's holder mounts a layer.
      agentOnThisMachine: run.runner === 'local',
      // A layer is mounted where the desk's sandbox is made (an agent this machine confines), or by a Docker daemon of this machine.
      ...(repo.snapshots && layerSnapshots(repo.snapshots, task, runnerLayerChoice({
        runner: run.runner, confined: deps.sandbox.confines?.(task.agent) === true, dockerHost: deps.runners?.daemonHostOf?.(run.runner),
      }))),
    };
    run.done = deps.run(context)
      .catch((error: unknown): RunOutcome => ({ status: 'error', message: error instanceof Error ? error.message : String(error) }))
      .then((outcome) => finishRun(task.id, attempt, turn.turn, outcome, run.tokens));
    running.set(task.id, run);
  }

  function isCurrent(id: string, attempt: number): boolean {
    const current = tasks.get(id);
    return current !== undefined && current.attempt === attempt && isActive(current.status);
  }

  function finishRun(id: string, attempt: number, turn: number, outcome: RunOutcome, tokens?: number): void {
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
    if (outcome.status === 'completed') {
      save(id, { status: 'completed', commit: outcome.commit ?? (turn === 1 ? null : undefined), noChanges: outcome.noChanges ?? null, check: outcome.check ?? null, finishedAt, ...(outcome.changes !== undefined && { changes: outcome.changes }) });
    } else if (outcome.status === 'error') log(save(id, { status: 'error', errorMessage: outcome.message, finishedAt }), outcome.message, 'error');
    else save(id, { status: 'cancelled', finishedAt });
    const finished = tasks.get(id);
    if (finished?.attemptOf) deps.attemptChanged?.(finished, tokens === undefined ? {} : { tokens });
    schedule();
    deps.onFinished?.(id);
  }

  return {
    schedule,
    async stopRun(id) {
      questions.cancelAll(id);
      const run = running.get(id);
      if (!run) return;
      run.controller.abort();
      await run.done;
    },
    liveSession(id) {
      mustGet(id);
      const session = running.get(id)?.session;
      if (!session) throw taskBusy(`Task ${id} has no agent running right now.`);
      return session;
    },
    // Waiting for a free place is ordinary queueing, not something holding the task (see createStartHold).
    heldBy: (task) => heldBy(task, [], false),
    start() {
      started = true;
      schedule();
    },
    async shutdown() {
      stopping = true;
      if (recheck) clearTimeout(recheck);
      for (const id of [...running.keys()]) questions.cancelAll(id);
      const runs = [...running.values()];
      for (const run of runs) run.controller.abort();
      await Promise.all(runs.map((run) => run.done));
    },
  };
}

/** The run's `snapshotFor` as the runner's choice allows: the repository's snapshots, or a checkout and why (if it says). */
function layerSnapshots(snapshots: BaseSnapshots, task: TaskRecord, choice: ReturnType<typeof runnerLayerChoice>): Pick<RunContext, 'snapshotFor'> | undefined {
  if (choice.layer) return { snapshotFor: (request) => snapshots.snapshotFor({ ...request, taskId: task.id }) };
  const { why } = choice;
  if (why === undefined) return undefined;
  return { snapshotFor: async ({ log }) => { log(why); return undefined; } };
}
