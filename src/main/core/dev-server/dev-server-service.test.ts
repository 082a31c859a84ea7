// Which changes of a task end its dev server: the person stopping the task or its worktree going away.
import { describe, expect, it } from 'vitest';
import { endsDevServer } from './dev-server-service';

describe('endsDevServer', () => {
  it('ends it when the task is cancelled', () => {
    expect(endsDevServer({ status: 'cancelled', review: 'pending' })).toBe(true);
  });
  it('ends it when the task is rejected (its worktree is cleaned up)', () => {
    expect(endsDevServer({ status: 'completed', review: 'rejected' })).toBe(true);
  });
  it('ends it when the task is archived', () => {
    expect(endsDevServer({ status: 'completed', review: 'approved', archived: true })).toBe(true);
  });
  it('ends it when the task is queued again (a rerun or resubmission gets a fresh worktree)', () => {
    expect(endsDevServer({ status: 'queued', review: 'pending' })).toBe(true);
  });
  it('keeps it while the task is in review or its agent works in the worktree', () => {
    expect(endsDevServer({ status: 'completed', review: 'pending' })).toBe(false);
    expect(endsDevServer({ status: 'in-progress', review: 'pending' })).toBe(false);
    expect(endsDevServer({ status: 'awaiting-input', review: 'pending' })).toBe(false);
  });
});
