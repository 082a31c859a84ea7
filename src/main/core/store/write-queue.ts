// The events waiting to be written, in order and bounded: while the disk is full they pile up here, and past the
// bound the oldest output (message text, terminal output) goes first, then the oldest of anything. Each task that
// lost some gets one line in its activity saying so, written with the first batch that gets through.
import type { EventEnvelope, TaskEvent } from '../../../shared/events';

export interface WriteQueue {
  push(envelope: EventEnvelope): void;
  size(): number;
  /** Everything queued, oldest first, and the queue emptied. */
  take(): EventEnvelope[];
  /** One activity line per task that lost events, numbered by `nextSeq`; they stay owed until `noted()`. */
  notes(nextSeq: () => number): EventEnvelope[];
  /** The notes were written. */
  noted(): void;
  /** A batch that could not be written goes back in front of what came meanwhile. */
  putBack(batch: readonly EventEnvelope[]): void;
  /** What is queued now, oldest first (for readers while the disk is full). */
  list(): readonly EventEnvelope[];
}

interface Lost { count: number; attempt: number; at: string }

export function createWriteQueue(maxQueued: number): WriteQueue {
  let queued: EventEnvelope[] = [];
  const lost = new Map<string, Lost>();

  function bound(): void {
    while (queued.length > maxQueued) {
      const index = queued.findIndex((e) => isOutput(e.event));
      const [gone] = queued.splice(index === -1 ? 0 : index, 1);
      if (!gone) return;
      const before = lost.get(gone.taskId);
      lost.set(gone.taskId, { count: (before?.count ?? 0) + 1, attempt: gone.attempt, at: gone.at });
    }
  }

  return {
    push(envelope) {
      queued.push(envelope);
      if (queued.length > maxQueued) bound();
    },
    size: () => queued.length,
    take() {
      const batch = queued;
      queued = [];
      return batch;
    },
    notes(nextSeq) {
      return [...lost].map(([taskId, { count, attempt, at }]) => {
        const text = `${count} event${count === 1 ? '' : 's'} of this task (the oldest output first) could not be kept while the disk was full.`;
        return { seq: nextSeq(), taskId, attempt, at, event: { type: 'log', level: 'warn', source: 'desk', text } };
      });
    },
    noted: () => lost.clear(),
    putBack(batch) {
      queued = [...batch, ...queued];
      bound();
    },
    list: () => queued,
  };
}

function isOutput(event: TaskEvent): boolean {
  return (event.type === 'agent' && event.update.kind === 'message') || event.type === 'terminal-output';
}
