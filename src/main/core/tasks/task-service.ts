// Submitting, cancelling and scheduling tasks: loads state, asks the pure rules, saves, records events, starts runs.
import type { TaskEvent } from '../../../shared/events';
import type { SubmitTask, TaskDetail, TaskSummary } from '../../../shared/task';
import type { AgentRegistry } from '../agents/agent-registry';
import type { PermissionOutcome, PermissionRequest } from '../agents/agent-session';
import { commandLineOf, endProcessTree, processExists, processGroupAlive } from '../agents/process-tree';
import type { GitService } from '../git/git-service';
import type { TaskPatch, TaskRecord, TasksRepo } from '../store/tasks-repo';
import { findCycle } from './dependency-graph';
import { pickTasksToStart } from './scheduler';
import { CycleError, UnknownAgentError, UnknownTaskError } from './task-errors';
import type { RunContext, RunOutcome } from './task-runner';
import { canTransition, isActive } from './task-state';
import { toDetail, toSummary } from './task-view';

export interface TaskService {
  /** Queues a task; a task with the same id is cancelled and replaced. Throws CycleError, UnknownAgentError. */
  submit(input: SubmitTask): Promise<TaskRecord>;
  /** Stops the task's agent (within about 3 s) and marks it cancelled. Throws UnknownTaskError. */
  cancel(id: string): Promise<TaskRecord>;
  list(): TaskSummary[];
  /** Throws UnknownTaskError. */
  detail(id: string): TaskDetail;
  /** Re-queues tasks that were running when the desk stopped, ending agents they left behind. */
  recover(): Promise<void>;
  /** Starts scheduling (after the host is listening, so nothing runs half-started). */
  start(): void;
  /** Stops every agent; their tasks are re-queued to run again at the next start. */
  shutdown(): Promise<void>;
}

export interface TaskServiceDeps {
  tasks: TasksRepo;
  git: GitService;
  agents: AgentRegistry;
  record(taskId: string, attempt: number, event: TaskEvent): void;
  run(context: RunContext): Promise<RunOutcome>;
  decidePermission(task: TaskRecord, request: PermissionRequest): Promise<PermissionOutcome>;
  now(): Date;
  config: { concurrency: number; defaultAgent: string; baseBranch: string; clientVersion: string };
}

interface ActiveRun { attempt: number; controller: AbortController; done: Promise<void> }

export function createTaskService(deps: TaskServiceDeps): TaskService {
  const { tasks } = deps;
  const running = new Map<string, ActiveRun>();
  const locks = new Map<string, Promise<unknown>>();
  let started = false;
  let stopping = false;

  const now = () => deps.now().toISOString();
  const statusOf = (id: string) => tasks.get(id)?.status;

  /** Runs `work` after every earlier operation on the same task id has finished. */
  function withTaskLock<T>(id: string, work: () => Promise<T>): Promise<T> {
    const previous = locks.get(id) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    locks.set(id, settled);
    void settled.then(() => { if (locks.get(id) === settled) locks.delete(id); });
    return next;
  }

  function save(id: string, patch: TaskPatch): TaskRecord {
    const updated = tasks.update(id, { ...patch, updatedAt: now() });
    deps.record(id, updated.attempt, { type: 'task', task: toSummary(updated) });
    return updated;
  }

  function log(task: TaskRecord, text: string, level: 'info' | 'warn' | 'error' = 'info'): void {
    deps.record(task.id, task.attempt, { type: 'log', level, source: 'desk', text });
  }

  function assertNoCycle(id: string, dependencies: readonly string[]): void {
    const graph = new Map(tasks.list().filter((t) => t.id !== id).map((t) => [t.id, t.dependencies]));
    const cycle = findCycle(graph, id, dependencies);
    if (cycle) throw new CycleError(cycle);
  }

  /** Aborts the task's run, if any, and waits until its agent is gone. */
  async function stopRun(id: string): Promise<void> {
    const run = running.get(id);
    if (!run) return;
    run.controller.abort();
    await run.done;
  }

  function schedule(): void {
    if (!started || stopping) return;
    for (const task of pickTasksToStart(tasks.list(), running.size, deps.config.concurrency)) startRun(task);
  }

  function startRun(task: TaskRecord): void {
    const attempt = task.attempt + 1;
    const record = save(task.id, {
      status: 'in-progress', attempt, startedAt: now(), finishedAt: null, errorMessage: null, commit: null, agentPid: null, sessionId: null,
    });
    const controller = new AbortController();
    const context: RunContext = {
      task: record,
      signal: controller.signal,
      git: deps.git,
      agents: deps.agents,
      clientVersion: deps.config.clientVersion,
      update: (patch) => { if (isCurrent(task.id, attempt)) tasks.update(task.id, patch); },
      record: (event) => deps.record(task.id, attempt, event),
      decidePermission: (request) => deps.decidePermission(record, request),
    };
    const done = deps.run(context)
      .catch((error: unknown): RunOutcome => ({ status: 'error', message: error instanceof Error ? error.message : String(error) }))
      .then((outcome) => finishRun(task.id, attempt, outcome));
    running.set(task.id, { attempt, controller, done });
  }

  function isCurrent(id: string, attempt: number): boolean {
    const current = tasks.get(id);
    return current !== undefined && current.attempt === attempt && isActive(current.status);
  }

  function finishRun(id: string, attempt: number, outcome: RunOutcome): void {
    if (running.get(id)?.attempt === attempt) running.delete(id);
    if (!isCurrent(id, attempt)) return;
    const current = tasks.get(id) as TaskRecord;
    if (stopping) {
      save(id, { status: 'queued', agentPid: null });
      log(current, 'The desk shut down while this task ran; it will run again at the next start.', 'warn');
      return;
    }
    const finishedAt = now();
    if (outcome.status === 'completed') save(id, { status: 'completed', commit: outcome.commit, finishedAt });
    else if (outcome.status === 'error') {
      const failed = save(id, { status: 'error', errorMessage: outcome.message, finishedAt });
      log(failed, outcome.message, 'error');
    } else save(id, { status: 'cancelled', finishedAt });
    schedule();
  }

  return {
    async submit(input) {
      const agent = input.agent ?? deps.config.defaultAgent;
      if (!deps.agents.get(agent)) throw new UnknownAgentError(agent, deps.agents.list().map((a) => a.id));
      assertNoCycle(input.id, input.dependencies);
      return withTaskLock(input.id, async () => {
        const previous = tasks.get(input.id);
        if (previous) await stopRun(input.id);
        // The graph may have changed while the old run was stopping.
        assertNoCycle(input.id, input.dependencies);
        const at = now();
        const record = tasks.putSubmission({
          id: input.id, prompt: input.prompt, dependencies: input.dependencies, agent, status: 'queued', review: 'pending',
          submittedAt: at, updatedAt: at, baseBranch: deps.config.baseBranch, attempt: previous?.attempt ?? 0,
        });
        deps.record(record.id, record.attempt, { type: 'task', task: toSummary(record) });
        if (previous) log(record, `Replaced the earlier submission (it was ${previous.status}); its branch is archived when this run starts.`);
        schedule();
        return tasks.get(input.id) as TaskRecord;
      });
    },

    cancel(id) {
      return withTaskLock(id, async () => {
        const task = tasks.get(id);
        if (!task) throw new UnknownTaskError(id);
        if (running.has(id)) await stopRun(id);
        const current = tasks.get(id) as TaskRecord;
        if (!canTransition(current.status, 'cancelled')) return current;
        const cancelled = save(id, { status: 'cancelled', finishedAt: now(), agentPid: null });
        schedule();
        return cancelled;
      });
    },

    list: () => tasks.list().map(toSummary),

    detail(id) {
      const task = tasks.get(id);
      if (!task) throw new UnknownTaskError(id);
      return toDetail(task, statusOf);
    },

    async recover() {
      const interrupted = tasks.list().filter((t) => isActive(t.status));
      for (const task of interrupted) {
        if (task.agentPid !== undefined) await reapOrphan(task, deps.agents);
        const requeued = save(task.id, { status: 'queued', agentPid: null });
        log(requeued, 'The desk stopped while this task ran; it will run again from a clean worktree.', 'warn');
      }
    },

    start() {
      started = true;
      schedule();
    },

    async shutdown() {
      stopping = true;
      const runs = [...running.values()];
      for (const run of runs) run.controller.abort();
      await Promise.all(runs.map((run) => run.done));
    },
  };
}

/**
 * Ends the process group a crashed desk left behind for this task. A pid is not reused while a group
 * of that id exists, so a group whose leader is gone is surely ours; a live leader is checked by its
 * command line (where the platform tells it) because the pid may have been recycled.
 */
async function reapOrphan(task: TaskRecord, agents: AgentRegistry): Promise<void> {
  const pid = task.agentPid as number;
  if (!processGroupAlive(pid)) return;
  if (processExists(pid)) {
    const commandLine = commandLineOf(pid);
    const spec = agents.get(task.agent);
    const ours = commandLine !== undefined && spec !== undefined
      && commandLine[0] === spec.command && spec.args.every((arg) => commandLine.includes(arg));
    if (!ours) return;
  }
  await endProcessTree(pid);
}
