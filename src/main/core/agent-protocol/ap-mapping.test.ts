// How desk tasks and turns look to Agent Protocol clients: step ids, step states, the last step, artifacts, pages.
import { describe, expect, it } from 'vitest';
import { ApPageQuery } from '../../../shared/agent-protocol';
import type { OpenQuestion } from '../../../shared/questions';
import type { TaskDetail } from '../../../shared/task';
import type { TurnRecord } from '../store/turns-repo';
import { artifactIdFor, isLastStep, paginate, stepIdFor, stepStatus, toApArtifact, toApStep, toApTask, turnOfStepId } from './ap-mapping';

const at = '2025-01-01T00:00:00.000Z';
const turn = (n: number, fields: Partial<TurnRecord> = {}): TurnRecord => ({
  taskId: 't1', turn: n, prompt: `prompt ${n}`, agent: 'scripted', status: 'completed', requestedAt: at, ...fields,
});
const detail = (fields: Partial<TaskDetail> = {}): TaskDetail => ({
  id: 't1', submittedAt: at, status: 'completed', title: 'prompt 1', agent: 'scripted', dependencies: [], review: 'pending',
  updatedAt: at, workingMs: 0, prompt: 'prompt 1', unmetDependencies: [], baseBranch: 'main', attempt: 1,
  turns: [{ turn: 1, prompt: 'prompt 1', status: 'completed', requestedAt: at }], ...fields,
});
const permission: OpenQuestion = {
  id: 'q1', taskId: 't1', kind: 'permission', prompt: 'May I?', askedAt: at,
  options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }, { optionId: 'reject', name: 'Reject', kind: 'reject_once' }],
};

describe('step ids', () => {
  it('names a turn and reads the number back only for the same task', () => {
    expect(stepIdFor('t1', 3)).toBe('t1-turn-3');
    expect(turnOfStepId('t1', 't1-turn-3')).toBe(3);
    expect(turnOfStepId('t1-turn-1', 't1-turn-1-turn-2')).toBe(2);
    for (const other of ['t2-turn-3', 't1-turn-0', 't1-turn-03', 't1-turn-x', 't1-turn-', 'turn-1']) expect(turnOfStepId('t1', other)).toBeUndefined();
  });
});

describe('step status', () => {
  const facts = { isLatest: true, taskStatus: 'in-progress' as const, openQuestions: 0 };
  it('maps pending to created, running to running, and every end to completed', () => {
    expect(stepStatus({ status: 'pending' }, facts)).toBe('created');
    expect(stepStatus({ status: 'running' }, facts)).toBe('running');
    for (const status of ['completed', 'error', 'cancelled'] as const) expect(stepStatus({ status }, facts)).toBe('completed');
  });

  it('says awaiting_input while the latest turn waits on a question, and created when a restart re-queued it', () => {
    expect(stepStatus({ status: 'running' }, { ...facts, openQuestions: 1 })).toBe('awaiting_input');
    expect(stepStatus({ status: 'running' }, { ...facts, taskStatus: 'queued' })).toBe('created');
  });
});

describe('the last step', () => {
  it('is the latest step once the task was approved or rejected, and none before', () => {
    expect(isLastStep('approved', true)).toBe(true);
    expect(isLastStep('rejected', true)).toBe(true);
    expect(isLastStep('pending', true)).toBe(false);
    expect(isLastStep('approved', false)).toBe(false);
  });
});

describe('steps', () => {
  it('shows a waiting turn with its question and how to answer it', () => {
    const step = toApStep(detail({ status: 'awaiting-input', openQuestions: [permission] }), turn(1, { status: 'running' }), []);
    expect(step).toMatchObject({ step_id: 't1-turn-1', name: 'turn 1', status: 'awaiting_input', output: null, is_last: false });
    expect(step.additional_output).toMatchObject({ turn: 1, question: permission, open_questions: [permission] });
    expect(step.additional_output.answer_with).toContain('"allow"');
  });

  it('shows how an earlier turn ended, its commit and output; the error message only on the latest', () => {
    const task = detail({
      status: 'error', errorMessage: 'Boom', review: 'approved',
      turns: [{ turn: 1, prompt: 'a', status: 'completed', requestedAt: at }, { turn: 2, prompt: 'b', status: 'error', requestedAt: at }],
    });
    const first = toApStep(task, turn(1, { commit: 'c'.repeat(40), output: 'Done.', finishedAt: '2025-01-02T00:00:00.000Z' }), []);
    expect(first).toMatchObject({ status: 'completed', output: 'Done.', is_last: false, modified_at: '2025-01-02T00:00:00.000Z' });
    expect(first.additional_output).toEqual({ turn: 1, commit: 'c'.repeat(40), ended: 'completed' });
    const second = toApStep(task, turn(2, { status: 'error' }), []);
    expect(second).toMatchObject({ is_last: true, additional_output: { ended: 'error', error_message: 'Boom' } });
  });

  it('says what a created step waits for', () => {
    const step = toApStep(detail({ status: 'queued', blockedBy: 'Waiting for x.' }), turn(1, { status: 'pending' }), []);
    expect(step).toMatchObject({ status: 'created', additional_output: { waiting_for: 'Waiting for x.' } });
  });
});

describe('tasks and artifacts', () => {
  it('shows what the client sent with the agent and dependencies the desk applied', () => {
    const task = toApTask(detail({ dependencies: ['a'] }), { test_run_id: '1', agent: 'other' }, []);
    expect(task).toEqual({ task_id: 't1', input: 'prompt 1', additional_input: { test_run_id: '1', agent: 'scripted', dependencies: ['a'] },
      created_at: at, modified_at: at, artifacts: [] });
  });

  it('gives a file a stable id per task and splits its path into folder and name', () => {
    expect(artifactIdFor('t1', 'a/b.txt')).toBe(artifactIdFor('t1', 'a/b.txt'));
    expect(artifactIdFor('t1', 'a/b.txt')).not.toBe(artifactIdFor('t2', 'a/b.txt'));
    expect(toApArtifact({ taskId: 't1', path: 'a/b/c.txt', agentCreated: true, createdAt: at, modifiedAt: at }))
      .toMatchObject({ file_name: 'c.txt', relative_path: 'a/b', agent_created: true });
    expect(toApArtifact({ taskId: 't1', path: 'top.txt', agentCreated: false, createdAt: at, modifiedAt: at }).relative_path).toBe('');
  });
});

describe('pages', () => {
  const items = ['a', 'b', 'c', 'd', 'e'];
  it('slices a page and counts the pages', () => {
    expect(paginate(items, { current_page: 2, page_size: 2 })).toEqual({ items: ['c', 'd'], pagination: { total_items: 5, total_pages: 3, current_page: 2, page_size: 2 } });
    expect(paginate(items, { current_page: 3, page_size: 2 }).items).toEqual(['e']);
  });

  it('answers a page past the end, or of nothing, with no items', () => {
    expect(paginate(items, { current_page: 9, page_size: 2 })).toEqual({ items: [], pagination: { total_items: 5, total_pages: 3, current_page: 9, page_size: 2 } });
    expect(paginate([], { current_page: 1, page_size: 10 }).pagination).toEqual({ total_items: 0, total_pages: 0, current_page: 1, page_size: 10 });
  });

  it('reads page numbers from a query: defaults, the size cap, and no zeros, fractions or words', () => {
    expect(ApPageQuery.parse({})).toEqual({ current_page: 1, page_size: 10 });
    expect(ApPageQuery.parse({ current_page: '3', page_size: '1000' })).toEqual({ current_page: 3, page_size: 100 });
    for (const bad of ['0', '-1', '1.5', 'abc', '', '1e3']) {
      expect(ApPageQuery.safeParse({ current_page: bad }).success, bad).toBe(false);
      expect(ApPageQuery.safeParse({ page_size: bad }).success, bad).toBe(false);
    }
  });
});
