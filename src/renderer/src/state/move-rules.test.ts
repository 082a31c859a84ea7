import { describe, expect, it } from 'vitest';
import { moveIntent } from './move-rules';

describe('moveIntent', () => {
  it('approves a task moved from Review to Done', () => {
    expect(moveIntent({ id: 't', status: 'completed', review: 'pending' }, 'done')).toEqual({ action: 'approve' });
  });

  it('cancels a running task moved to Stopped', () => {
    expect(moveIntent({ id: 't', status: 'in-progress', review: 'pending' }, 'stopped')).toEqual({ action: 'cancel' });
  });

  it('refuses with a reason to start a queued task by moving it to Working', () => {
    const intent = moveIntent({ id: 't', status: 'queued', review: 'pending' }, 'working');
    expect(intent).toMatchObject({ action: 'refuse' });
    expect(intent.action === 'refuse' && intent.reason).toContain('starts working by itself');
  });

  it('does nothing when the card stays in its column', () => {
    expect(moveIntent({ id: 't', status: 'queued', review: 'pending' }, 'queued')).toEqual({ action: 'none' });
  });
});
