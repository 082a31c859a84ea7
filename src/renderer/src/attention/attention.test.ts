import { describe, expect, it } from 'vitest';
import { summary } from '../state/test-events';
import { countNeedingYou, needsYou, titleText } from './attention';

const question = { id: 'q', taskId: 't', kind: 'elicitation' as const, prompt: 'Which colour?', askedAt: '2025-01-01T10:00:00.000Z' };

describe('what needs the person', () => {
  it('is a task waiting for an answer or ready for review, and nothing else', () => {
    expect(needsYou(summary('a', { status: 'awaiting-input', openQuestions: [question] }))).toBe('answer');
    expect(needsYou(summary('r', { status: 'completed', review: 'pending' }))).toBe('review');
    expect(needsYou(summary('d', { status: 'completed', review: 'approved' }))).toBeUndefined();
    expect(needsYou(summary('w', { status: 'in-progress' }))).toBeUndefined();
    expect(needsYou(summary('e', { status: 'error' }))).toBeUndefined();
  });

  it('counts such tasks for the tab title', () => {
    const tasks = Object.fromEntries([
      summary('a', { status: 'awaiting-input' }), summary('r', { status: 'completed' }), summary('q'), summary('d', { status: 'completed', review: 'approved' }),
    ].map((task) => [task.id, task]));
    expect(countNeedingYou(tasks)).toBe(2);
  });
});

describe('the tab title', () => {
  it('leads with the count while something needs the person', () => {
    expect(titleText(3)).toBe('(3) Assignment Desk');
  });

  it('is the plain name when nothing does', () => {
    expect(titleText(0)).toBe('Assignment Desk');
  });
});
