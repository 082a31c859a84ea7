// What the activity says of a task the desk stopped while it was active.
import { describe, expect, it } from 'vitest';
import { recoveryNote } from './task-recovery';

describe('the note on a task stopped by a restart', () => {
  it('says a task of one run runs again from a clean worktree', () => {
    expect(recoveryNote({ status: 'in-progress' })).toBe('The desk stopped while this task ran; it will run again from a clean worktree.');
  });

  it('says a task with undecided attempts resumes its attempts, not itself', () => {
    const attempts = { agents: ['a', 'b'], stats: {} };
    expect(recoveryNote({ status: 'in-progress', attempts })).toBe('The desk stopped while the attempts ran: those that had not ended run again from clean worktrees, those that had keep their work.');
    expect(recoveryNote({ status: 'awaiting-input', attempts })).toBe('The desk stopped while it asked which attempt to keep; it asks again.');
    // Once one is kept, the task runs its follow-ups itself.
    expect(recoveryNote({ status: 'in-progress', attempts: { ...attempts, chosen: 1 } })).toBe('The desk stopped while this task ran; it will run again from a clean worktree.');
  });

  it('says the judge judges again', () => {
    expect(recoveryNote({ status: 'in-progress', attempts: { agents: ['a', 'b'], stats: {}, judge: 'a', judgeStarted: true } })).toBe('The desk stopped while the judge compared the attempts; it judges them again.');
    expect(recoveryNote({ status: 'in-progress', attemptOf: { task: 't', n: 0 } })).toMatch(/^The desk stopped while the judge compared the attempts/);
  });
});
