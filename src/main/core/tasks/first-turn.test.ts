import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../store/tasks-repo';
import type { TurnRecord } from '../store/turns-repo';
import { turnsOfTask } from './first-turn';

const at = '2026-11-23T10:00:00.000Z';
const task = (fields: Partial<TaskRecord> = {}): TaskRecord => ({
  id: 't', seq: 1, prompt: 'Add a badge', dependencies: [], agent: 'scripted', status: 'queued', review: 'pending',
  submittedAt: at, updatedAt: at, baseBranch: 'main', attempt: 0, workingMs: 0, ...fields,
});
const stored: TurnRecord = { taskId: 't', turn: 1, prompt: 'Add a badge', agent: 'scripted', status: 'completed', requestedAt: at, commit: 'abc' };

describe('a task’s turns', () => {
  it('are its prompt as a pending first turn while it has never started', () => {
    expect(turnsOfTask(task(), [])).toEqual([{ taskId: 't', turn: 1, prompt: 'Add a badge', agent: 'scripted', status: 'pending', requestedAt: at }]);
  });

  it('end with the task when it is cancelled before it started', () => {
    const finishedAt = '2026-11-23T11:00:00.000Z';
    expect(turnsOfTask(task({ status: 'cancelled', finishedAt }), [])).toEqual([expect.objectContaining({ turn: 1, status: 'cancelled', finishedAt })]);
  });

  it('are the stored ones once there are any', () => {
    expect(turnsOfTask(task({ status: 'completed', startedAt: at }), [stored])).toEqual([stored]);
  });

  it('are none for a task that ran before turns were stored', () => {
    expect(turnsOfTask(task({ status: 'completed', startedAt: at }), [])).toEqual([]);
  });
});
