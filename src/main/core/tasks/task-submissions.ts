// What clients ask of a task's life: submit (a same id replaces the task), follow up, change what it waits for,
// cancel. Each takes the task's lock, asks the rules, saves, and lets the scheduler look again.
import { attemptTaskId, FINISHED_STATUSES, type DependencyGate, type SubmitTask } from '../../../shared/task';
import type { TaskAttempts } from './task-attempts';
import type { AgentRegistry } from '../agents/agent-registry';
import type { RunnerSet } from '../runners/runner-set';
import type { TaskRecord } from '../store/tasks-repo';
import type { TaskGrantsRepo } from '../store/task-grants-repo';
import type { TaskLock } from './task-locks';
import type { ProposalFields } from './task-proposals';
import type { TaskRecords } from './task-records';
import { retireInOtherRepo, type TaskRepos } from './task-repos';
import type { TaskRuns } from './task-runs';
import { taskBusy, unknownAgent } from './task-errors';
import { canTransition } from './task-state';

export interface TaskSubmissions {
  /** Queues a task; a task with the same id is cancelled and replaced. Throws `dependency_cycle`, `unknown_agent`. */
  submit(input: SubmitTask, proposal?: ProposalFields): Promise<TaskRecord>;
  /** Queues another turn for a task whose run is over; it ends in one more commit. Throws `task_busy` while it runs. */
  followUp(id: string, prompt: string): Promise<TaskRecord>;
  /** Replaces the tasks a queued task waits for; refuses a cycle (`dependency_cycle`) or a task that already started. */
  setDependencies(id: string, dependencies: string[]): Promise<TaskRecord>;
  /** Stops the task's agent (within about 3 s), answers its open questions with `cancelled`, marks it cancelled. */
  cancel(id: string): Promise<TaskRecord>;
}

export interface TaskSubmissionsDeps {
  records: Pick<TaskRecords, 'tasks' | 'turns' | 'record' | 'summaryOf' | 'save' | 'log' | 'mustGet' | 'assertNoCycle' | 'now'>;
  runs: Pick<TaskRuns, 'schedule' | 'stopRun'>;
  /** "Always allow" answers: a replacing submission is a new task, which starts without them. */
  grants: Pick<TaskGrantsRepo, 'forget'>;
  agents: Pick<AgentRegistry, 'has' | 'list'>;
  repos: TaskRepos;
  runners?: Pick<RunnerSet, 'choose'> | undefined;
  withTaskLock: TaskLock;
  /** Runs `work` as one database transaction; settles once it is durable. */
  atomically<T>(work: () => T): Promise<T>;
  /** Read at every submission: Settings may change them while the desk runs. */
  config: { readonly defaultAgent: string; readonly dependenciesAfter?: DependencyGate | undefined };
  /** Tasks run as several attempts (./task-attempts.ts). */
  attempts: Pick<TaskAttempts, 'planOf' | 'stopAll'>;
}

export function createTaskSubmissions(deps: TaskSubmissionsDeps): TaskSubmissions {
  const { tasks, turns, save, log, mustGet, assertNoCycle, now } = deps.records;
  const { schedule, stopRun } = deps.runs;
  const { repos, withTaskLock } = deps;

  return {
    async submit(input, proposal) {
      const agent = input.agent ?? deps.config.defaultAgent;
      const repo = repos.of(input.repo);
      if (!deps.agents.has(agent)) throw unknownAgent(agent, deps.agents.list().map((a) => a.id));
      input.attempts?.forEach((entry, index) => {
        if (entry.agent !== undefined && !deps.agents.has(entry.agent)) throw unknownAgent(entry.agent, deps.agents.list().map((a) => a.id), `attempts.${index}.agent`);
      });
      if (input.judge !== undefined && !deps.agents.has(input.judge)) throw unknownAgent(input.judge, deps.agents.list().map((a) => a.id), 'judge');
      const plan = deps.attempts.planOf(input, agent);
      const runner = deps.runners?.choose(input.runner) ?? 'local';
      assertNoCycle(input.id, input.dependencies);
      return withTaskLock(input.id, async () => {
        const previous = tasks.get(input.id);
        if (previous) {
          // Attempts the new submission has again are replaced by its own (their branches archived when each starts).
          if (previous.attempts) await deps.attempts.stopAll(previous, (plan?.agents.length ?? 0) + 1);
          await stopRun(input.id);
          await retireInOtherRepo(previous, repo.name, repos);
          // The graph may have changed while the old run was stopping.
          assertNoCycle(input.id, input.dependencies);
        }
        const at = now();
        // The task's one row (its first turn is its prompt until it starts: first-turn.ts), committed with this
        // event-loop turn's other writes; answered once durable. A replaced submission's turns go with it.
        const stored = await deps.atomically(() => {
          if (previous) {
            turns.forget(input.id);
            deps.grants.forget(input.id);
          }
          const fields = {
            prompt: input.prompt, dependencies: input.dependencies, status: 'queued' as const, review: 'pending' as const,
            submittedAt: at, updatedAt: at, baseBranch: repo.baseBranch, ...(repo.name !== undefined && { repo: repo.name }),
            ...((input.after ?? deps.config.dependenciesAfter) === 'approved' && { after: 'approved' as const }),
            ...(runner !== 'local' && { runner }),
          };
          // Each attempt is a task of its own the scheduler runs; the task itself never runs an agent.
          plan?.agents.forEach((attemptAgent, index) => {
            const id = attemptTaskId(input.id, index + 1);
            const earlier = tasks.get(id);
            if (earlier) {
              turns.forget(id);
              deps.grants.forget(id);
            }
            // An agent's proposal holds its attempts too, until it is accepted (./task-proposals.ts).
            const held = proposal && { proposedBy: proposal.proposedBy, proposal: proposal.proposal };
            tasks.putSubmission({ ...fields, id, agent: attemptAgent, attempt: earlier?.attempt ?? 0, attemptOf: { task: input.id, n: index + 1 }, ...held });
          });
          return tasks.putSubmission({ ...fields, id: input.id, agent, attempt: previous?.attempt ?? 0, ...proposal, ...(plan && { attempts: plan }) });
        });
        deps.records.record(stored.id, stored.attempt, { type: 'task', task: deps.records.summaryOf(stored) });
        if (previous) log(stored, `Replaced the earlier submission (it was ${previous.status}); its branch is archived when this run starts.`);
        schedule();
        return tasks.get(input.id) as TaskRecord;
      });
    },

    followUp(id, prompt) {
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
    },

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

    cancel(id) {
      return withTaskLock(id, async () => {
        const task = mustGet(id);
        if (task.attempts && task.attempts.chosen === undefined && canTransition(task.status, 'cancelled')) {
          // Cancelled first: what its attempts do while they stop is then no longer followed.
          const cancelled = save(id, { status: 'cancelled', finishedAt: now(), agentPid: null });
          await deps.attempts.stopAll(task);
          schedule();
          return cancelled;
        }
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
  };
}
