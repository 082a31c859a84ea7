import { describe, expect, it } from 'vitest';
import { loadBoard } from './board-reducer';
import { agentLabel, agentsOnBoard, cardViewModel, columnOf, columnTaskIds, formatElapsed, groupByColumn, matchesFilters, NO_FILTERS } from './selectors';
import { summary } from './test-events';

describe('columnOf', () => {
  it.each([
    [{ status: 'queued', review: 'pending' }, 'queued'],
    [{ status: 'in-progress', review: 'pending' }, 'working'],
    [{ status: 'awaiting-input', review: 'pending' }, 'needs-input'],
    [{ status: 'completed', review: 'pending' }, 'review'],
    [{ status: 'completed', review: 'approved' }, 'done'],
    [{ status: 'completed', review: 'rejected' }, 'stopped'],
    [{ status: 'error', review: 'pending' }, 'stopped'],
    [{ status: 'cancelled', review: 'pending' }, 'stopped'],
  ] as const)('puts %j in %s', (task, column) => {
    expect(columnOf(task)).toBe(column);
  });
});

describe('filters', () => {
  const board = loadBoard([
    summary('t1', { title: 'Fix login', agent: 'gemini' }),
    summary('t2', { title: 'Write docs', status: 'in-progress' }),
    summary('t3', { title: 'Tests', status: 'completed' }),
  ], 0);

  it('keeps tasks whose id, title or known prompt contains the search', () => {
    expect(columnTaskIds(board, 'queued', { ...NO_FILTERS, search: 'LOGIN' })).toEqual(['t1']);
    expect(matchesFilters(board.tasks.t2!, { ...NO_FILTERS, search: 'readme' }, 'Update the README')).toBe(true);
  });

  it('filters by agent and by status', () => {
    expect(groupByColumn(board, { ...NO_FILTERS, agent: 'gemini' }).queued).toEqual(['t1']);
    expect(groupByColumn(board, { ...NO_FILTERS, status: 'completed' })).toMatchObject({ queued: [], working: [], review: ['t3'] });
  });
});

describe('the agent as a person knows it', () => {
  const claude = { name: 'claude-code-acp', title: 'Claude Code', version: '0.16.2' };

  it('names the agent by its own title and version once it said them, also behind the ad-hoc id', () => {
    expect(agentLabel(summary('t', { agent: 'ad-hoc', agentInfo: claude }))).toBe('Claude Code 0.16.2');
    expect(agentLabel(summary('t', { agent: 'x', agentInfo: { name: 'my-agent', version: '2.0.0' } }))).toBe('my-agent 2.0.0');
  });

  it("keeps the desk's id for an agent that has not started yet", () => {
    expect(agentLabel(summary('t', { agent: 'gemini' }))).toBe('gemini');
  });

  it('offers and filters by those names', () => {
    const board = loadBoard([
      summary('a', { agent: 'ad-hoc', agentInfo: claude }),
      summary('b', { agent: 'ad-hoc', agentInfo: { name: 'opencode', version: '1.18.33' } }),
      summary('c', { agent: 'ad-hoc' }),
    ], 0);
    expect(agentsOnBoard(board)).toEqual(['Claude Code 0.16.2', 'ad-hoc', 'opencode 1.18.33']);
    expect(groupByColumn(board, { ...NO_FILTERS, agent: 'Claude Code 0.16.2' }).queued).toEqual(['a']);
  });
});

describe('cardViewModel', () => {
  it('marks a dependency that errored as blocked and one not submitted as unknown', () => {
    const card = cardViewModel(summary('t3', { dependencies: ['t1', 't2', 'x'] }), undefined, ['error', 'in-progress', 'unknown']);
    expect(card.dependencies).toEqual([{ id: 't1', state: 'blocked' }, { id: 't2', state: 'waiting' }, { id: 'x', state: 'unknown' }]);
  });

  it('says a task needs an answer while a question is open', () => {
    const question = { id: 'q', taskId: 't1', kind: 'permission' as const, prompt: 'May I?', askedAt: '2025-01-01T10:00:00.000Z' };
    expect(cardViewModel(summary('t1', { status: 'awaiting-input', openQuestions: [question] }), undefined, []).needsAnswer).toBe(true);
  });

  it('counts working time from the core while the agent works, and says what it took once the run is over', () => {
    const since = '2025-01-01T10:00:02.000Z';
    expect(cardViewModel(summary('t1', { status: 'in-progress', startedAt: since, workingMs: 500, workingSince: since }), undefined, []).time)
      .toEqual({ kind: 'working', ms: 500, since: Date.parse(since) });
    expect(cardViewModel(summary('t1', { status: 'awaiting-input', startedAt: since, workingMs: 1500 }), undefined, []).time).toEqual({ kind: 'paused', ms: 1500 });
    expect(cardViewModel(summary('t1', { status: 'completed', startedAt: since, finishedAt: since, workingMs: 1200 }), undefined, []).time).toEqual({ kind: 'took', ms: 1200 });
    expect(cardViewModel(summary('t1'), undefined, []).time).toEqual({ kind: 'none' });
  });

  it('shows the latest activity text', () => {
    expect(cardViewModel(summary('t1'), { kind: 'tool', text: 'Edit a.ts' }, []).activity).toBe('Edit a.ts');
  });

  it('shows the activity the core kept when nothing came live since the page loaded', () => {
    expect(cardViewModel(summary('t1', { lastActivity: { kind: 'message', text: 'Done.' } }), undefined, []).activity).toBe('Done.');
    expect(cardViewModel(summary('t1', { lastActivity: { kind: 'message', text: 'Done.' } }), { kind: 'tool', text: 'Edit a.ts' }, []).activity).toBe('Edit a.ts');
  });
});

describe('formatElapsed', () => {
  it.each([[4_000, '4s'], [185_000, '3m 05s'], [7_440_000, '2h 04m']])('formats %d ms as %s', (ms, text) => {
    expect(formatElapsed(ms)).toBe(text);
  });
});
