import { describe, expect, it } from 'vitest';
import { decideAttempts, type AttemptState } from './attempt-choice';

const passed = { status: 'passed', exitCode: 0, durationMs: 1, outputTail: '' } as const;
const failed = { status: 'failed', exitCode: 1, durationMs: 1, outputTail: '' } as const;
const at = (n: number, status: AttemptState['status'], check?: AttemptState['check']): AttemptState => ({ n, status, check });

describe('deciding what a task with attempts does next', () => {
  it('waits, queued until one starts and in progress after', () => {
    expect(decideAttempts([at(1, 'queued'), at(2, 'queued')], undefined)).toEqual({ kind: 'wait', status: 'queued' });
    expect(decideAttempts([at(1, 'in-progress'), at(2, 'queued')], undefined)).toEqual({ kind: 'wait', status: 'in-progress' });
    expect(decideAttempts([at(1, 'completed'), at(2, 'awaiting-input')], undefined)).toEqual({ kind: 'wait', status: 'in-progress' });
  });

  it('asks a person among the completed attempts once all have ended', () => {
    expect(decideAttempts([at(1, 'completed'), at(2, 'error'), at(3, 'completed')], undefined)).toEqual({ kind: 'ask', among: [1, 3] });
  });

  it('fails when no attempt completed, naming how each ended', () => {
    expect(decideAttempts([at(1, 'error'), at(2, 'cancelled')], undefined)).toEqual({ kind: 'fail', message: 'No attempt completed: attempt 1 error, attempt 2 cancelled.' });
  });

  it('keeps the first to complete with choose first, while others still run', () => {
    expect(decideAttempts([at(1, 'in-progress'), at(2, 'completed')], 'first')).toEqual({ kind: 'keep', n: 2 });
  });

  it('keeps the first to pass the check with choose check, and asks when none passed', () => {
    expect(decideAttempts([at(1, 'completed', failed), at(2, 'in-progress')], 'check')).toEqual({ kind: 'wait', status: 'in-progress' });
    expect(decideAttempts([at(1, 'completed', failed), at(2, 'completed', passed)], 'check')).toEqual({ kind: 'keep', n: 2 });
    expect(decideAttempts([at(1, 'completed', failed), at(2, 'error')], 'check')).toEqual({ kind: 'ask', among: [1], note: 'No attempt passed the check, so the choice is yours.' });
  });
});
