// Hands every recorded event to whoever listens right now (the events sockets); one bus per core.
import type { EventEnvelope } from '../../../shared/events';

export type EventListener = (event: EventEnvelope) => void;

export interface EventBus {
  publish(event: EventEnvelope): void;
  /** Returns the function that stops listening. */
  subscribe(listener: EventListener): () => void;
}

export function createEventBus(): EventBus {
  const listeners = new Set<EventListener>();
  return {
    publish(event) {
      for (const listener of listeners) listener(event);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
