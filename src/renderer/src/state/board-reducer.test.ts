import { describe, expect, it } from 'vitest';
import { applyEvent, applyEvents, loadBoard } from './board-reducer';
import { chunk, envelope, summary } from './test-events';

describe('applyEvent', () => {
  it('replaces a card summary with the one a task event carries', () => {
    const board = loadBoard([summary('t1')], 4);
    const next = applyEvent(board, envelope(5, 't1', { type: 'task', task: summary('t1', { status: 'in-progress' }) }));
    expect(next.tasks.t1?.status).toBe('in-progress');
    expect(next.lastSeq).toBe(5);
    expect(board.tasks.t1?.status).toBe('queued');
  });

  it('adds a newly submitted task at the end of the submission order', () => {
    const next = applyEvent(loadBoard([summary('t1')], 1), envelope(2, 't2', { type: 'task', task: summary('t2') }));
    expect(next.order).toEqual(['t1', 't2']);
  });

  it('makes no card of an attempt\'s own task: the task it is an attempt of stands for it', () => {
    const next = applyEvent(loadBoard([summary('t1')], 1), envelope(2, 't1~attempt-1', { type: 'task', task: summary('t1~attempt-1', { attemptOf: { task: 't1', n: 1 } }) }));
    expect(next.order).toEqual(['t1']);
    expect(next.tasks['t1~attempt-1']).toBeUndefined();
    expect(next.lastSeq).toBe(2);
  });

  it('makes no card of a judge\'s own task either', () => {
    const next = applyEvent(loadBoard([summary('t1')], 1), envelope(2, 't1~judge', { type: 'task', task: summary('t1~judge', { judgeOf: 't1' }) }));
    expect(next.order).toEqual(['t1']);
    expect(next.tasks['t1~judge']).toBeUndefined();
  });

  it('ignores events it has seen already, as a replay after a reconnect sends them again', () => {
    const board = loadBoard([summary('t1')], 10);
    expect(applyEvent(board, envelope(9, 't1', { type: 'task', task: summary('t1', { status: 'error' }) }))).toBe(board);
  });

  it('shows the last tool call title as the latest activity', () => {
    const board = loadBoard([summary('t1')], 0);
    const next = applyEvent(board, envelope(1, 't1', { type: 'agent', update: { kind: 'tool-call', toolCallId: 'c1', title: 'Write a.txt' } }));
    expect(next.activity.t1).toEqual({ kind: 'tool', text: 'Write a.txt' });
  });

  it('joins message chunks into one activity snippet', () => {
    const next = applyEvents(loadBoard([summary('t1')], 0), [envelope(1, 't1', chunk('Hello')), envelope(2, 't1', chunk(' world\n'))]);
    expect(next.activity.t1?.text.trim()).toBe('Hello world');
  });

  it('starts a new snippet once the task status changed, as a follow-up turn does', () => {
    const next = applyEvents(loadBoard([summary('t1')], 0), [
      envelope(1, 't1', chunk('First turn')),
      envelope(2, 't1', { type: 'task', task: summary('t1', { status: 'in-progress' }) }),
      envelope(3, 't1', chunk('Second turn')),
    ]);
    expect(next.activity.t1?.text).toBe('Second turn');
  });

  it('keeps activity of tasks it does not know out of the board', () => {
    const next = applyEvent(loadBoard([], 0), envelope(1, 'login:gemini', chunk('hi')));
    expect(next.activity).toEqual({});
  });

  it('applies a batch in one new state', () => {
    const board = loadBoard([summary('t1'), summary('t2')], 0);
    const next = applyEvents(board, [
      envelope(1, 't1', { type: 'task', task: summary('t1', { status: 'in-progress' }) }),
      envelope(2, 't2', { type: 'task', task: summary('t2', { status: 'in-progress' }) }),
    ]);
    expect([next.tasks.t1?.status, next.tasks.t2?.status, next.lastSeq]).toEqual(['in-progress', 'in-progress', 2]);
  });
});
