// What each task's agent did last, followed from the events it records, so the task summary (and a card after
// a reload) says it. In memory: chunks arrive by the thousand and must not each cost a database write.
import { nextActivity, sealActivity, type Activity } from '../../../shared/activity';
import type { TaskEvent } from '../../../shared/events';
import type { TaskActivity } from '../../../shared/task';

export interface ActivityTracker {
  /** Follows an event the task records. */
  observe(taskId: string, event: TaskEvent): void;
  /** The task's status changed: its next message starts a new snippet. */
  seal(taskId: string): void;
  /** The activity seen since the desk started, if any (the stored one otherwise stands). */
  get(taskId: string): TaskActivity | undefined;
  /** A resubmission starts with nothing done. */
  forget(taskId: string): void;
  /** Ids whose activity changed since the last call. */
  takeChanged(): string[];
}

export function createActivityTracker(): ActivityTracker {
  const latest = new Map<string, Activity>();
  const changed = new Set<string>();
  return {
    observe(taskId, event) {
      if (event.type !== 'agent') return;
      const previous = latest.get(taskId);
      const next = nextActivity(previous, event.update);
      if (!next || next === previous) return;
      latest.set(taskId, next);
      changed.add(taskId);
    },
    seal(taskId) {
      const current = latest.get(taskId);
      const sealed = sealActivity(current);
      if (sealed && sealed !== current) latest.set(taskId, sealed);
    },
    get(taskId) {
      const activity = latest.get(taskId);
      const text = activity?.text.trim();
      return activity && text ? { kind: activity.kind, text } : undefined;
    },
    forget(taskId) {
      latest.delete(taskId);
      changed.delete(taskId);
    },
    takeChanged() {
      if (changed.size === 0) return [];
      const ids = [...changed];
      changed.clear();
      return ids;
    },
  };
}
