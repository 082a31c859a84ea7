import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../shared/events';
import type { TaskStatus, TaskSummary } from '../../shared/task';
import { notificationFor, type SeenStatuses } from '../../shared/notifications-policy';

let seq = 0;
function taskEvent(id: string, status: TaskStatus, extra: Partial<TaskSummary> = {}): EventEnvelope {
  const task: TaskSummary = { id, submittedAt: '2025-01-01T00:00:00Z', status, title: `Fix ${id}`, agent: 'scripted', dependencies: [], review: 'pending', updatedAt: '2025-01-01T00:00:00Z', workingMs: 0, ...extra };
  return { seq: ++seq, taskId: id, attempt: 1, at: '2025-01-01T00:00:00Z', event: { type: 'task', task } };
}

/** Feeds events through the policy the way the notifier does and returns what it would show. */
function run(events: EventEnvelope[], focused = false) {
  let seen: SeenStatuses = new Map();
  const shown = [];
  for (const event of events) {
    const step = notificationFor(seen, event, focused);
    seen = step.seen;
    if (step.notification) shown.push(step.notification);
  }
  return shown;
}

describe('desk notifications', () => {
  it('say a task needs input, with the agent\'s question', () => {
    const question = { id: 'q1', taskId: 'a', kind: 'permission' as const, prompt: 'May I run the tests?', options: [], askedAt: '2025-01-01T00:00:00Z' };
    const [shown] = run([taskEvent('a', 'in-progress'), taskEvent('a', 'awaiting-input', { openQuestions: [question] })]);
    expect(shown).toEqual({ taskId: 'a', title: 'Fix a needs input', body: 'May I run the tests?' });
  });

  it('say a task is ready for review when it completes', () => {
    const [shown] = run([taskEvent('b', 'in-progress'), taskEvent('b', 'completed', { commit: '3f2c9a1b7e' })]);
    expect(shown).toMatchObject({ taskId: 'b', title: 'Fix b is ready for review' });
    expect(shown?.body).toContain('3f2c9a1');
  });

  it('do not repeat while the task stays in that status', () => {
    expect(run([taskEvent('c', 'awaiting-input'), taskEvent('c', 'awaiting-input'), taskEvent('c', 'awaiting-input')])).toHaveLength(1);
    expect(run([taskEvent('d', 'completed'), taskEvent('d', 'completed', { review: 'approved' })])).toHaveLength(1);
  });

  it('tell again when the task waits again after an answer', () => {
    expect(run([taskEvent('e', 'awaiting-input'), taskEvent('e', 'in-progress'), taskEvent('e', 'awaiting-input')])).toHaveLength(2);
  });

  it('stay quiet about queued, running, failed and cancelled tasks, and about agent output', () => {
    const output: EventEnvelope = { seq: ++seq, taskId: 'f', attempt: 1, at: 'now', event: { type: 'log', level: 'info', source: 'agent', text: 'hi' } };
    expect(run([taskEvent('f', 'queued'), taskEvent('f', 'in-progress'), output, taskEvent('f', 'error'), taskEvent('g', 'cancelled')])).toEqual([]);
  });

  it('stay quiet while the person is looking at the board, without telling later', () => {
    let seen: SeenStatuses = new Map();
    seen = notificationFor(seen, taskEvent('h', 'awaiting-input'), true).seen;
    expect(notificationFor(seen, taskEvent('h', 'awaiting-input'), false).notification).toBeUndefined();
  });
});
