// A task run as several attempts side by side: each attempt is a task of its own (`<id>~attempt-<n>`, never listed) that
// the scheduler runs like any other, in its own worktree, on its own branch, in its own sandbox. This follows them for
// the task: its status while they run, the attempt kept (by `choose`, or a person's answer to the desk's question), the
// others stopped and retired, and what GET /tasks/<id> shows of each.
import { ACTIVE_STATUSES, attemptTaskId, type AttemptView, type SubmitTask, type TaskStatus } from '../../../shared/task';
import type { GitService } from '../git/git-service';
import type { AttemptsPlan, TaskRecord } from '../store/tasks-repo';
import { decideAttempts } from './attempt-choice';
import { createAttemptJudging, JUDGE_TIMEOUT_MS } from './attempt-judging';
import { createBackgroundWork } from './background-work';
import { JUDGE_N } from '../store/tasks-repo';
import type { TaskRecords } from './task-records';
import type { TaskRuns } from './task-runs';

export interface TaskAttempts {
  /** The plan of a submission with attempts (its agents, default the task's), or undefined for a task of one run. */
  planOf(input: SubmitTask, taskAgent: string): AttemptsPlan | undefined;
  /** The attempts' own tasks of a task, as their records say (undefined for an attempt not stored). */
  attemptsOf(task: TaskRecord): (TaskRecord | undefined)[];
  /** An attempt's task changed (its run started or ended, `tokens` what it took): the task it is an attempt of follows. */
  changed(attempt: TaskRecord, facts?: { tokens?: number }): void;
  /**
   * Stops every attempt of the task and marks those still active cancelled; the task follows none of it. Attempts
   * numbered `retireFrom` and up (a new submission has fewer, or none) are retired too: branch archived, worktree removed.
   */
  stopAll(task: TaskRecord, retireFrom?: number): Promise<void>;
  /**
   * After a restart (once recovery re-queued what ran): each task whose attempts are not decided follows them again,
   * so one whose attempts had all ended asks again which to keep (questions live in memory).
   */
  resume(): void;
  /** What GET /tasks/<id> shows of each attempt. */
  viewsOf(task: TaskRecord): AttemptView[];
  /** Resolves once the work started without waiting (keeping an attempt, retiring the others, a judge's discard) has ended. */
  settled(): Promise<void>;
  /** The id whose branch and worktree the task's work is on: the attempt kept, else the task itself. */
  workIdOf(task: TaskRecord): string;
}

export interface TaskAttemptsDeps {
  records: Pick<TaskRecords, 'tasks' | 'turns' | 'questions' | 'save' | 'log' | 'now'>;
  runs: Pick<TaskRuns, 'stopRun' | 'schedule'>;
  gitOf(task: TaskRecord): Pick<GitService, 'diff' | 'retire' | 'branchFor'>;
  /** The repository's cleanup in a worktree before it is retired. */
  cleanUp(task: TaskRecord): Promise<void>;
  withTaskLock<T>(id: string, work: () => Promise<T>): Promise<T>;
  /** How long a judge may take before it is stopped and a person chooses; default JUDGE_TIMEOUT_MS. */
  judgeTimeoutMs?: number;
}

const OPTION_PREFIX = 'attempt-';
/** Queued counts: a task waits for its attempts' runs before they start too. */
const isActive = (status: TaskStatus) => ACTIVE_STATUSES.includes(status);

export function createTaskAttempts(deps: TaskAttemptsDeps): TaskAttempts {
  const { tasks, turns, questions, save, log, now } = deps.records;
  /** Tasks whose attempts are being stopped (a cancel, a replacing submission): what their attempts do is not followed. */
  const stopping = new Set<string>();
  /** Tasks whose question "which to keep" is open, so a second change does not ask again. */
  const asking = new Set<string>();
  /** Per task, the changes of its attempts still being followed (their stats read from git). */
  const following = new Map<string, Promise<void>>();

  const attemptsOf = (task: TaskRecord) => (task.attempts?.agents ?? []).map((_, index) => tasks.get(attemptTaskId(task.id, index + 1)));
  const parentOf = (attempt: TaskRecord) => (attempt.attemptOf ? tasks.get(attempt.attemptOf.task) : undefined);
  const background = createBackgroundWork();
  const judging = createAttemptJudging({
    records: deps.records, runs: deps.runs, gitOf: deps.gitOf, cleanUp: deps.cleanUp, background,
    timeoutMs: deps.judgeTimeoutMs ?? JUDGE_TIMEOUT_MS, answered: (parentId) => follow(parentId),
  });

  /** Notes on the task's plan what a finished attempt changed (read from git) and the tokens it took. */
  async function noteStats(attempt: TaskRecord, tokens: number | undefined): Promise<void> {
    const parent = parentOf(attempt);
    const n = attempt.attemptOf?.n;
    if (!parent?.attempts || n === undefined || n === JUDGE_N) return;
    const diff = attempt.status === 'completed' && attempt.baseCommit && attempt.commit
      ? await deps.gitOf(attempt).diff(attempt.baseCommit, attempt.commit).catch(() => undefined) : undefined;
    if (!diff && tokens === undefined) return;
    // Read again after the diff: another attempt may have written the plan meanwhile.
    const current = tasks.get(parent.id)?.attempts;
    if (!current) return;
    const stats = diff && { filesChanged: diff.files.length, additions: diff.files.reduce((sum, f) => sum + f.additions, 0), deletions: diff.files.reduce((sum, f) => sum + f.deletions, 0) };
    save(parent.id, { attempts: {
      ...current,
      ...(stats && { stats: { ...current.stats, [n]: stats } }),
      ...(tokens !== undefined && { tokens: { ...current.tokens, [n]: tokens } }),
    } });
  }

  function follow(parentId: string): void {
    const parent = tasks.get(parentId);
    if (!parent?.attempts || parent.attempts.chosen !== undefined || stopping.has(parentId) || !isActive(parent.status)) return;
    const states = attemptsOf(parent).map((attempt, index) => ({ n: index + 1, status: attempt?.status ?? 'cancelled' as const, check: attempt?.check }));
    const decision = decideAttempts(states, parent.attempts.choose);
    switch (decision.kind) {
      case 'wait':
        if (parent.status !== decision.status && !asking.has(parentId)) save(parentId, { status: decision.status, ...(decision.status === 'in-progress' && parent.startedAt === undefined && { startedAt: now() }) });
        return;
      case 'fail':
        log(save(parentId, { status: 'error', errorMessage: decision.message, finishedAt: now() }), decision.message, 'error');
        return;
      case 'keep':
        keepLater(parent, decision.n, `Kept attempt ${decision.n}: ${parent.attempts.choose === 'check' ? 'the first to complete and pass the check' : 'the first to complete'}.`);
        return;
      case 'ask': {
        if (asking.has(parentId)) return;
        // A judge answers first, when the task has one; the task works on while it does.
        const judged = judging.step(parent, decision.among);
        if (judged.kind === 'waiting') {
          if (parent.status !== 'in-progress') save(parentId, { status: 'in-progress' });
          return;
        }
        const { recommendation } = judged;
        if (recommendation && parent.attempts.choose === 'judge') {
          keepLater(parent, recommendation.n, `Kept attempt ${recommendation.n}, as the judge (${recommendation.by}) chose: ${recommendation.reason}`);
          return;
        }
        const note = [decision.note, judged.note && `${judged.note} The choice is yours.`, recommendation && `The judge (${recommendation.by}) recommends attempt ${recommendation.n}: ${recommendation.reason}`]
          .filter((part) => part).join(' ');
        ask(parent, decision.among, note, recommendation?.n);
      }
    }
  }

  function ask(parent: TaskRecord, among: number[], note: string | undefined, recommended?: number): void {
    if (asking.has(parent.id)) return;
    asking.add(parent.id);
    const options = among.map((n) => {
      const attempt = tasks.get(attemptTaskId(parent.id, n));
      const check = attempt?.check ? `, check ${attempt.check.status}` : '';
      const judged = n === recommended ? ', recommended by the judge' : '';
      return { optionId: `${OPTION_PREFIX}${n}`, name: `Attempt ${n} (${attempt?.agent ?? 'agent'}${check}${judged})`, kind: 'allow_once' };
    });
    const { answered } = questions.open({
      taskId: parent.id, kind: 'permission', options,
      prompt: `${note ? `${note.trimEnd()} ` : ''}Which attempt do you keep? The others' branches are archived and their worktrees removed.`,
    }, now());
    save(parent.id, { status: 'awaiting-input' });
    void answered.then((answer) => {
      asking.delete(parent.id);
      if (!('optionId' in answer)) return;
      const n = Number(answer.optionId.slice(OPTION_PREFIX.length));
      keepLater(parent, n, `Kept attempt ${n}, as a person chose.`);
    });
  }

  /** `keep`, not waited for: the desk's shutdown waits for it, and a failure is told in the task's activity. */
  function keepLater(parent: TaskRecord, n: number, why: string): void {
    background.run(() => keep(parent.id, n, why), (message) => log(parent, `Keeping attempt ${n} failed: ${message}`, 'error'));
  }

  /** The task takes attempt `n`'s work (commit, branch, worktree, session); the other attempts are stopped and retired. */
  function keep(parentId: string, n: number, why: string): Promise<void> {
    return deps.withTaskLock(parentId, async () => {
      const parent = tasks.get(parentId);
      const chosen = tasks.get(attemptTaskId(parentId, n));
      if (!parent?.attempts || parent.attempts.chosen !== undefined || !chosen || chosen.status !== 'completed') return;
      // The plan says first which one is kept: what the others do while they stop is no longer followed.
      tasks.update(parentId, { attempts: { ...parent.attempts, chosen: n } });
      // The task's one turn so far is the chosen attempt's, so a follow-up continues in its worktree.
      const turn = turns.startOver(parentId, parent.prompt, chosen.agent, parent.submittedAt);
      turns.update(parentId, turn.turn, { status: 'completed', ...(chosen.commit !== undefined && { commit: chosen.commit }), ...(chosen.startedAt !== undefined && { startedAt: chosen.startedAt }), finishedAt: now() });
      const kept = save(parentId, {
        status: 'completed', agent: chosen.agent, commit: chosen.commit ?? null, branch: chosen.branch ?? null, worktreePath: chosen.worktreePath ?? null,
        baseCommit: chosen.baseCommit ?? null, sessionId: chosen.sessionId ?? null, agentInfo: chosen.agentInfo ?? null, check: chosen.check ?? null,
        noChanges: chosen.noChanges ?? null, errorMessage: null, finishedAt: now(),
      });
      log(kept, why);
      // Tasks waiting for this one may start now.
      deps.runs.schedule();
      await retireOthers(kept, n);
    });
  }

  async function retireOthers(parent: TaskRecord, keptN: number): Promise<void> {
    for (const attempt of attemptsOf(parent)) {
      if (attempt?.attemptOf && attempt.attemptOf.n !== keptN) await retireAttempt(parent, attempt, 'not kept');
    }
  }

  /** Stops the attempt, archives its branch and removes its worktree (the repository's cleanup first). */
  async function retireAttempt(parent: TaskRecord, attempt: TaskRecord, why: string): Promise<void> {
    await deps.runs.stopRun(attempt.id);
    const current = tasks.get(attempt.id) as TaskRecord;
    if (isActive(current.status)) save(attempt.id, { status: 'cancelled', finishedAt: now(), agentPid: null });
    if (current.worktreePath === undefined) return;
    await deps.cleanUp(current).catch(() => undefined);
    const { archiveRef } = await deps.gitOf(current).retire(current.id).catch((): { archiveRef?: string } => ({}));
    save(current.id, { worktreePath: null, review: 'rejected' });
    const n = current.attemptOf?.n;
    log(parent, archiveRef ? `Attempt ${n} ${why}: its work is kept under ${archiveRef}.` : `Attempt ${n} ${why}.`);
  }

  return {
    planOf(input, taskAgent) {
      if (!input.attempts) return undefined;
      return { agents: input.attempts.map((entry) => entry.agent ?? taskAgent), ...(input.choose && { choose: input.choose }), ...(input.judge !== undefined && { judge: input.judge }), stats: {} };
    },
    attemptsOf,
    changed(attempt, facts = {}) {
      const parent = parentOf(attempt);
      if (!parent) return;
      // One after the other per task, and only the last change queued decides: a decision is made once every
      // completed attempt's stats are noted.
      const previous = following.get(parent.id) ?? Promise.resolve();
      const last = () => following.get(parent.id) === next;
      const next: Promise<void> = previous
        .then(() => noteStats(attempt, facts.tokens))
        .catch(() => undefined)
        .then(() => {
          if (!last()) return;
          following.delete(parent.id);
          follow(parent.id);
        });
      following.set(parent.id, next);
    },
    async stopAll(task, retireFrom) {
      stopping.add(task.id);
      try {
        questions.cancelAll(task.id);
        await judging.stop(task, true);
        for (const attempt of attemptsOf(task)) {
          if (!attempt?.attemptOf) continue;
          if (retireFrom !== undefined && attempt.attemptOf.n >= retireFrom) {
            await retireAttempt(task, attempt, 'dropped by the new submission');
            continue;
          }
          await deps.runs.stopRun(attempt.id);
          const current = tasks.get(attempt.id) as TaskRecord;
          if (isActive(current.status)) save(attempt.id, { status: 'cancelled', finishedAt: now(), agentPid: null });
        }
      } finally {
        stopping.delete(task.id);
        asking.delete(task.id);
      }
    },
    settled: () => background.settled(),
    resume() {
      for (const task of tasks.list()) if (task.attempts && task.attempts.chosen === undefined && isActive(task.status)) follow(task.id);
    },
    viewsOf(task) {
      const plan = task.attempts;
      if (!plan) return [];
      return attemptsOf(task).map((attempt, index) => {
        const n = index + 1;
        const stats = plan.stats[n] ?? { filesChanged: 0, additions: 0, deletions: 0 };
        return {
          n, agent: attempt?.agent ?? plan.agents[index] ?? '', status: attempt?.status ?? 'cancelled',
          branch: attempt?.branch ?? deps.gitOf(task).branchFor(attemptTaskId(task.id, n)),
          ...(attempt?.commit !== undefined && { commit: attempt.commit }),
          ...stats, workingMs: attempt?.workingMs ?? 0,
          ...(plan.tokens?.[n] !== undefined && { tokens: plan.tokens[n] }),
          ...(attempt?.check !== undefined && { check: attempt.check }),
          ...(attempt?.errorMessage !== undefined && { errorMessage: attempt.errorMessage }),
          ...(plan.chosen === n && { chosen: true as const }),
        };
      });
    },
    workIdOf: (task) => (task.attempts?.chosen !== undefined ? attemptTaskId(task.id, task.attempts.chosen) : task.id),
  };
}
