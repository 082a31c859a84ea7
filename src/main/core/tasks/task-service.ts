// The task service: its parts (records, runs, submissions, sessions, reads, review, base updates, archive, pull
// requests, proposals, settings, recovery), each given only what it uses, composed here. What each part does is said in its own file.
import type { TaskEvent } from '../../../shared/events';
import type { CapabilityMode } from '../../../shared/governance';
import type { PushAfterApprove } from '../../../shared/review';
import { FINISHED_STATUSES, type DependencyGate, type SubmitTask } from '../../../shared/task';
import type { AgentRegistry } from '../agents/agent-registry';
import { NO_FORGE_ACCESS, type ForgeAccess } from '../forge/forge-access';
import { attentionFilesOf } from '../git/attention-files';
import type { GitService } from '../git/git-service';
import type { RunnerSet } from '../runners/runner-set';
import type { TaskSandbox } from '../sandbox/task-sandbox';
import type { TaskRecord, TasksRepo } from '../store/tasks-repo';
import type { TurnsRepo } from '../store/turns-repo';
import type { WorkspaceSetup } from '../workspace/workspace-setup';
import type { PermissionGate } from './agent-requests';
import type { AgentLimits } from './start-limits';
import { createTaskLock } from './task-locks';
import type { QuietTasks } from './task-memory';
import { createTaskProposals, type TaskProposals } from './task-proposals';
import { createTaskReads, type TaskReads } from './task-reads';
import { createTaskRecords } from './task-records';
import { recoverInterruptedTasks } from './task-recovery';
import { sandboxFor, singleRepo, type TaskRepos } from './task-repos';
import { createTaskReview, type TaskReview } from './task-review';
import { createTaskArchive, type TaskArchive } from './task-archive';
import { createTaskAttempts, type TaskAttempts } from './task-attempts';
import { createTaskBaseUpdates, type TaskBaseUpdates } from './task-base-updates';
import { createTaskFeedbackTurns, type TaskFeedbackTurns } from './task-feedback-turns';
import { createTaskPullRequests, type TaskPullRequests } from './task-pull-requests';
import type { RunContext, RunOutcome } from './task-runner';
import { createTaskRuns, type TaskRuns } from './task-runs';
import { createTaskSessions, type TaskSessions } from './task-sessions';
import { createTaskSettings, type TaskSettings } from './task-settings';
import { createTaskSubmissions, type TaskSubmissions } from './task-submissions';
import { cleanUpWorktree } from './worktree-cleanup';
import { createMemoryTaskGrants, type TaskGrantsRepo } from '../store/task-grants-repo';

export interface TaskService extends TaskReview, TaskBaseUpdates, TaskArchive, TaskPullRequests, TaskFeedbackTurns, TaskSettings, Omit<TaskSubmissions, 'submit'>, TaskSessions, TaskReads, Pick<TaskRuns, 'start' | 'shutdown'> {
  /** Queues a task; a task with the same id is cancelled and replaced. Throws `dependency_cycle`, `unknown_agent`. */
  submit(input: SubmitTask): Promise<TaskRecord>;
  /** Re-queues tasks that were running when the desk stopped, ending agents they left behind. */
  recover(): Promise<void>;
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
  /** "Always allow" answers kept for the rest of each task (default: in memory, gone with the desk). */
  grants?: TaskGrantsRepo;
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
  sandbox: Pick<TaskSandbox, 'isolate' | 'confines'> & Partial<Pick<TaskSandbox, 'forgetState'>>;
  /** Which running tasks' agents went quiet (their summaries say since when). */ quiet?: QuietTasks;
  /** Where agents may run (docs/runners.md); without it every task runs `local`, through `sandbox`. */
  runners?: RunnerSet;
  now(): Date;
  /** `dependenciesAfter`: what dependencies must reach for tasks that do not say (default `completed`); `pushAfterApprove`: what an approval pushes. */
  config: { concurrency: number; defaultAgent: string; baseBranch: string; clientVersion: string; dependenciesAfter?: DependencyGate; pushAfterApprove?: PushAfterApprove | null; judgeTimeoutMs?: number };
  /** Where pull and merge requests open (without it, opening one says so). */
  forges?: ForgeAccess;
  /** The policy's `attentionGlobs`: more files a review flags on top of the built-in list (docs/security.md). */
  attentionGlobs?(): readonly string[];
}

export function createTaskService(deps: TaskServiceDeps): TaskService {
  const { agents, gate, sandbox, runners, config, now } = deps;
  const withTaskLock = createTaskLock();
  const records = createTaskRecords({ tasks: deps.tasks, turns: deps.turns, record: deps.record, now, quiet: deps.quiet, unsandboxed: (agent) => !sandbox.confines(agent) });
  const { tasks, mustGet, save, log } = records;
  const repos = deps.repos ?? singleRepo({ git: deps.git, workspace: deps.workspace, baseBranch: config.baseBranch });
  const cleanUp = (task: TaskRecord) => cleanUpWorktree(task, {
    agents, sandbox: sandboxFor(sandbox, repos.of(task.repo)), workspace: repos.of(task.repo).workspace,
    record: (event) => records.record(task.id, task.attempt, event), log: (text, level) => log(task, text, level),
    ...(sandbox.forgetState && { forgetState: sandbox.forgetState }),
  });

  const grants = deps.grants ?? createMemoryTaskGrants();
  const gitOf = (task: TaskRecord) => repos.of(task.repo).git;
  // Runs tell attempts when theirs start and end, and attempts stop runs: each reaches the other when called, not when made.
  const attempts: TaskAttempts = createTaskAttempts({
    records, gitOf, cleanUp, withTaskLock, runs: { stopRun: (id) => runs.stopRun(id), schedule: () => runs.schedule() },
    ...(config.judgeTimeoutMs !== undefined && { judgeTimeoutMs: config.judgeTimeoutMs }),
  });
  // Bound below, once the pull requests exist: a turn's end may push to its request.
  let afterTurn: (id: string) => Promise<void> = async () => {};
  const runs = createTaskRuns({
    records, gate, grants, agents, repos, sandbox, runners, config, cleanUp, now, run: deps.run, limits: deps.limits, commandMode: deps.commandMode,
    attemptChanged: (attempt, facts) => attempts.changed(attempt, facts),
    onFinished: (id) => { afterTurn(id).catch((error: unknown) => log(mustGet(id), `Handling the end of the turn failed: ${error instanceof Error ? error.message : String(error)}`, 'error')); },
  });
  const { schedule } = runs;
  const atomically = deps.transaction ?? (async <T>(work: () => T): Promise<T> => work());
  const submissions = createTaskSubmissions({ records, runs, grants, agents, repos, runners, withTaskLock, atomically, config, attempts });
  const { submit, followUp } = submissions;
  const review = createTaskReview({
    gitOf, mustGet, save, log, withTaskLock, submit, cleanUp, now, pushAfterApprove: () => config.pushAfterApprove ?? null, attentionGlobs: deps.attentionGlobs,
    keep: (id, patch) => tasks.update(id, patch), workIdOf: (task) => attempts.workIdOf(task),
  });
  let afterRead: (id: string) => Promise<void> = async () => {};
  const { link, ...pullRequests } = createTaskPullRequests({
    gitOf, mustGet, save, log, withTaskLock, now, forges: deps.forges ?? NO_FORGE_ACCESS, repoConfigOf: (task) => repos.of(task.repo).workspace.config(),
    withOpenPullRequests: () => tasks.list().filter((task) => task.pullRequest?.state === 'open'),
    afterRead: (id) => afterRead(id),
    attentionFiles: async (task) => attentionFilesOf(await review.diff(task.id)),
  });
  const feedbackTurns = createTaskFeedbackTurns({ link, gitOf, mustGet, save, log, withTaskLock, followUp, now });
  ({ afterTurn, afterRead } = feedbackTurns);

  return {
    ...review,
    async approve(id, options) {
      const approved = await review.approve(id, options);
      // Tasks that wait for their dependencies' approval may start now.
      schedule();
      return approved;
    },
    ...createTaskBaseUpdates({ gitOf, mustGet, save, log, withTaskLock, followUp }),
    ...createTaskArchive({ mustGet, save, log, withTaskLock, now }),
    ...pullRequests,
    addressFeedback: feedbackTurns.addressFeedback,
    ...submissions,
    async cancel(id) {
      const cancelled = await submissions.cancel(id);
      // A cancelled run never reaches the end of its turn: a turn addressing feedback is given up here.
      await afterTurn(id);
      return cancelled;
    },
    submit: (input) => submit(input),
    proposals: createTaskProposals({ find: (id) => tasks.get(id), mustGet, submit, save, log, withTaskLock, schedule, gate, now: records.now }),
    ...createTaskSettings(config, { agents, changed: schedule }),
    ...createTaskSessions({ records, runs }),
    ...createTaskReads({ records, runs, confines: (agent) => sandbox.confines(agent), attemptsOf: (task) => attempts.viewsOf(task) }),
    async recover() {
      await recoverInterruptedTasks({ graph: records.graph, mustGet, agents, gate, save, log });
      attempts.resume();
      // A turn addressing feedback that ended just before the desk stopped still has its commit to push.
      for (const task of tasks.list()) {
        if (task.pullRequest?.addressing && FINISHED_STATUSES.includes(task.status)) void afterTurn(task.id).catch(() => undefined);
      }
    },
    start: runs.start,
    async shutdown() {
      await runs.shutdown();
      // What the attempts started without waiting (keeping one, retiring the others) ends before the records close.
      await attempts.settled();
    },
  };
}
