// What the repository's check (`check` of `.desk/config.json`) made of a turn's work, told as a CheckResult. Pure.
import type { CheckResult } from '../../../shared/task';
import type { StepOutcome } from './run-setup';

/** How much of the check's output a result keeps: enough for the failing tests' names, little for the database. */
export const CHECK_TAIL_CHARS = 2000;

/** `passed` on exit code 0, `failed` on another code, `error` when it did not start or was stopped by a signal. */
export function checkResultOf(outcome: StepOutcome, durationMs: number): CheckResult {
  const outputTail = outcome.tail.slice(-CHECK_TAIL_CHARS);
  const duration = Math.max(0, Math.round(durationMs));
  if (!outcome.started || outcome.exitCode === null) return { status: 'error', durationMs: duration, outputTail };
  return { status: outcome.exitCode === 0 ? 'passed' : 'failed', exitCode: outcome.exitCode, durationMs: duration, outputTail };
}

/** A check that could not be run at all (its sandbox, the config file), with the reason as its output. */
export function checkNotRun(reason: string): CheckResult {
  return { status: 'error', durationMs: 0, outputTail: reason.slice(-CHECK_TAIL_CHARS) };
}
