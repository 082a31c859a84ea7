// The judge of a task's attempts: once all have ended, its agent gets a turn of its own (the hidden task `<id>~judge`,
// in a worktree of the base that is discarded after) with every completed attempt's diff, check, time and tokens in
// its prompt; its answer's RECOMMEND line becomes the task's recommendation, or a note saying why there is none.
import { ACTIVE_STATUSES, attemptTaskId, judgeTaskId, type AttemptRecommendation, type TaskStatus } from '../../../shared/task';
import type { GitService } from '../git/git-service';
import { JUDGE_N, type TaskRecord } from '../store/tasks-repo';
import { diffTextOf, judgePromptOf, parseJudgeAnswer, type JudgedAttempt } from './attempt-judge';
import type { TaskRecords } from './task-records';
import type { TaskRuns } from './task-runs';
import type { BackgroundWork } from './background-work';

/** Queued counts: a judge re-queued by a restart is still to answer. */
const isActive = (status: TaskStatus) => ACTIVE_STATUSES.includes(status);

/** Where the judge stands: still to answer, or done (a recommendation, or a note saying why there is none). */
export type JudgeStep =
  | { kind: 'waiting' }
  | { kind: 'done'; recommendation?: AttemptRecommendation | undefined; note?: string | undefined };

export interface AttemptJudging {
  /**
   * For a task whose attempts have all ended, `among` those that completed: starts its judge the first time, and says
   * whether it has answered. A task without a judge is done at once, with nothing.
   */
  step(parent: TaskRecord, among: readonly number[]): JudgeStep;
  /** Stops the task's judge if it runs; `discard` also removes its worktree and branch (a replaced or decided task). */
  stop(parent: TaskRecord, discard: boolean): Promise<void>;
}

export interface AttemptJudgingDeps {
  records: Pick<TaskRecords, 'tasks' | 'turns' | 'save' | 'log' | 'now'>;
  runs: Pick<TaskRuns, 'stopRun' | 'schedule'>;
  gitOf(task: TaskRecord): Pick<GitService, 'diff' | 'retire' | 'branchFor'>;
  cleanUp(task: TaskRecord): Promise<void>;
  /** Where work not waited for runs (./background-work.ts): the desk's shutdown waits for it. */
  background: Pick<BackgroundWork, 'run'>;
  /** A judge's turn that takes longer is stopped, and a person chooses. */
  timeoutMs: number;
  /** The judge's answer is in: the task it judged follows it. */
  answered(parentId: string): void;
}

/** How long a judge may take by default. */
export const JUDGE_TIMEOUT_MS = 15 * 60_000;

export function createAttemptJudging(deps: AttemptJudgingDeps): AttemptJudging {
  const { tasks, turns, save, log, now } = deps.records;
  /** Tasks whose judge's prompt is being made (diffs read from git). */
  const preparing = new Set<string>();
  /** Judges stopped for taking too long, by their task's id. */
  const timedOut = new Set<string>();
  const timers = new Map<string, NodeJS.Timeout>();

  const nameOf = (agent: string) => `The judge (${agent})`;

  function armTimer(parentId: string): void {
    if (timers.has(parentId)) return;
    timers.set(parentId, setTimeout(() => {
      timers.delete(parentId);
      const judge = tasks.get(judgeTaskId(parentId));
      if (!judge || !isActive(judge.status)) return;
      timedOut.add(parentId);
      // Its run ends cancelled; the task follows that like any end of the judge's turn.
      void deps.runs.stopRun(judge.id).then(() => {
        const current = tasks.get(judge.id);
        if (current && isActive(current.status)) save(judge.id, { status: 'cancelled', finishedAt: now(), agentPid: null });
        deps.answered(parentId);
      });
    }, deps.timeoutMs).unref());
  }

  async function start(parent: TaskRecord, among: readonly number[], agent: string): Promise<void> {
    preparing.add(parent.id);
    try {
      const judged: JudgedAttempt[] = [];
      for (const n of among) {
        const attempt = tasks.get(attemptTaskId(parent.id, n));
        if (!attempt) continue;
        const diff = attempt.baseCommit && attempt.commit ? await deps.gitOf(attempt).diff(attempt.baseCommit, attempt.commit).then(diffTextOf, () => '(the diff could not be read)') : '';
        judged.push({ n, agent: attempt.agent, branch: attempt.branch ?? deps.gitOf(attempt).branchFor(attempt.id), diff, check: attempt.check, workingMs: attempt.workingMs, tokens: tasks.get(parent.id)?.attempts?.tokens?.[n] });
      }
      const current = tasks.get(parent.id);
      // Cancelled or replaced while the diffs were read: no judge for it.
      if (!current?.attempts?.judgeStarted || !isActive(current.status)) return;
      const id = judgeTaskId(parent.id);
      const earlier = tasks.get(id);
      if (earlier) turns.forget(id);
      const at = now();
      tasks.putSubmission({
        id, prompt: judgePromptOf(parent, judged), dependencies: [], agent, status: 'queued', review: 'pending', submittedAt: at, updatedAt: at,
        baseBranch: parent.baseBranch, ...(parent.repo !== undefined && { repo: parent.repo }), ...(parent.runner !== undefined && { runner: parent.runner }),
        attempt: earlier?.attempt ?? 0, attemptOf: { task: parent.id, n: JUDGE_N },
      });
      log(current, `All attempts ended: the judge (${agent}) compares ${among.length === 1 ? 'the one that completed' : `the ${among.length} that completed`}.`);
      deps.runs.schedule();
    } catch (error) {
      noteOn(parent.id, `${nameOf(agent)} could not be started: ${error instanceof Error ? error.message : String(error)}.`);
      deps.answered(parent.id);
    } finally {
      preparing.delete(parent.id);
    }
  }

  function noteOn(parentId: string, note: string): void {
    const plan = tasks.get(parentId)?.attempts;
    if (plan) save(parentId, { attempts: { ...plan, judgeNote: note } });
  }

  /** Reads the ended judge's answer onto the task's plan, and discards its worktree. */
  function conclude(parent: TaskRecord, judge: TaskRecord, among: readonly number[], agent: string): JudgeStep {
    const plan = parent.attempts ?? { agents: [], stats: {} };
    const name = nameOf(agent);
    let step: JudgeStep;
    if (judge.status === 'completed') {
      const answer = parseJudgeAnswer(turns.latest(judge.id)?.output ?? '');
      if (answer.kind === 'recommend' && among.includes(answer.n)) {
        step = { kind: 'done', recommendation: { n: answer.n, reason: answer.reason, by: agent } };
      } else if (answer.kind === 'recommend') {
        step = { kind: 'done', note: `${name} recommended attempt ${answer.n}, which is not among those that completed (${among.join(', ')}).` };
      } else if (answer.kind === 'none') {
        step = { kind: 'done', note: `${name} found no attempt acceptable${answer.reason ? `: ${answer.reason}` : '.'}` };
      } else {
        step = { kind: 'done', note: `${name} named no attempt (its answer has no RECOMMEND line).` };
      }
    } else if (timedOut.has(parent.id)) {
      const within = deps.timeoutMs < 60_000 ? `${Math.round(deps.timeoutMs / 1000)} seconds` : `${Math.round(deps.timeoutMs / 60_000)} minutes`;
      step = { kind: 'done', note: `${name} did not answer within ${within} and was stopped.` };
    } else {
      step = { kind: 'done', note: `${name} ${judge.status === 'cancelled' ? 'was stopped' : `failed: ${judge.errorMessage ?? 'no reason given'}`}.` };
    }
    timedOut.delete(parent.id);
    const updated = save(parent.id, { attempts: { ...plan, ...(step.recommendation && { recommendation: step.recommendation }), ...(step.note !== undefined && { judgeNote: step.note }) } });
    log(updated, step.recommendation ? `${name} recommends attempt ${step.recommendation.n}: ${step.recommendation.reason}` : `${step.note} The choice is left to a person.`, step.recommendation ? 'info' : 'warn');
    // Not waited for here (the desk's shutdown does): a worktree left over is removed with the task's next run or retirement.
    deps.background.run(() => discard(judge), () => undefined);
    return step;
  }

  async function discard(judge: TaskRecord): Promise<void> {
    const current = tasks.get(judge.id);
    if (!current?.worktreePath) return;
    await deps.cleanUp(current).catch(() => undefined);
    await deps.gitOf(current).retire(current.id).catch(() => undefined);
    save(current.id, { worktreePath: null });
  }

  return {
    step(parent, among) {
      const plan = parent.attempts;
      if (!plan?.judge) return { kind: 'done' };
      if (plan.recommendation || plan.judgeNote !== undefined) {
        // A recommendation stands only for an attempt still among those that completed.
        const stands = plan.recommendation && among.includes(plan.recommendation.n) ? plan.recommendation : undefined;
        return { kind: 'done', recommendation: stands, note: plan.judgeNote };
      }
      const judge = tasks.get(judgeTaskId(parent.id));
      if (!plan.judgeStarted || (!preparing.has(parent.id) && judge?.attemptOf?.n !== JUDGE_N)) {
        save(parent.id, { attempts: { ...plan, judgeStarted: true } });
        void start(parent, among, plan.judge);
        return { kind: 'waiting' };
      }
      if (preparing.has(parent.id) || !judge) return { kind: 'waiting' };
      if (isActive(judge.status)) {
        armTimer(parent.id);
        return { kind: 'waiting' };
      }
      return conclude(parent, judge, among, plan.judge);
    },
    async stop(parent, discarding) {
      const timer = timers.get(parent.id);
      if (timer) clearTimeout(timer);
      timers.delete(parent.id);
      timedOut.delete(parent.id);
      const judge = tasks.get(judgeTaskId(parent.id));
      if (!judge) return;
      await deps.runs.stopRun(judge.id);
      const current = tasks.get(judge.id);
      if (current && isActive(current.status)) save(judge.id, { status: 'cancelled', finishedAt: now(), agentPid: null });
      if (discarding) await discard(judge);
    },
  };
}
