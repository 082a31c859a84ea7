// Builders of summaries and event envelopes for the renderer's unit tests.
import type { EventEnvelope, TaskEvent } from '../../../shared/events';
import type { TaskSummary } from '../../../shared/task';

export function summary(id: string, patch: Partial<TaskSummary> = {}): TaskSummary {
  return {
    id, submittedAt: '2025-01-01T10:00:00.000Z', updatedAt: '2025-01-01T10:00:05.000Z', status: 'queued', title: `Title of ${id}`,
    agent: 'scripted', dependencies: [], review: 'pending', workingMs: 0, ...patch,
  };
}

export function envelope(seq: number, taskId: string, event: TaskEvent, attempt = 1): EventEnvelope {
  return { seq, taskId, attempt, at: '2025-01-01T10:00:00.000Z', event };
}

export const chunk = (text: string, role: 'agent' | 'thought' | 'user' = 'agent'): TaskEvent =>
  ({ type: 'agent', update: { kind: 'message', role, text } });
