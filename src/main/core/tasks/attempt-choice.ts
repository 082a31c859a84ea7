// What a task with attempts does next, from where its attempts stand: wait (queued or in-progress), keep one (`choose`
// first or check), ask a person which to keep, or end in error when none completed. Pure.
import type { CheckResult, ChooseAttempt, TaskStatus } from '../../../shared/task';

export interface AttemptState { n: number; status: TaskStatus; check?: CheckResult | undefined }

export type AttemptDecision =
  | { kind: 'wait'; status: 'queued' | 'in-progress' }
  | { kind: 'keep'; n: number }
  | { kind: 'ask'; among: number[]; note?: string }
  | { kind: 'fail'; message: string };

const ACTIVE: ReadonlySet<TaskStatus> = new Set(['queued', 'in-progress', 'awaiting-input']);

/** `attempts` in attempt order; `choose` left out means a person chooses once every attempt has ended. */
export function decideAttempts(attempts: readonly AttemptState[], choose: ChooseAttempt | undefined): AttemptDecision {
  const completed = attempts.filter((attempt) => attempt.status === 'completed');
  if (choose === 'first' && completed[0]) return { kind: 'keep', n: completed[0].n };
  const passed = completed.find((attempt) => attempt.check?.status === 'passed');
  if (choose === 'check' && passed) return { kind: 'keep', n: passed.n };
  const active = attempts.filter((attempt) => ACTIVE.has(attempt.status));
  if (active.length > 0) return { kind: 'wait', status: active.some((attempt) => attempt.status !== 'queued') ? 'in-progress' : 'queued' };
  if (completed.length === 0) {
    return { kind: 'fail', message: `No attempt completed: ${attempts.map((attempt) => `attempt ${attempt.n} ${attempt.status}`).join(', ')}.` };
  }
  const among = completed.map((attempt) => attempt.n);
  return choose === 'check' ? { kind: 'ask', among, note: 'No attempt passed the check, so the choice is yours.' } : { kind: 'ask', among };
}
