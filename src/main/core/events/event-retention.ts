// Retention: events of tasks the board no longer shows (rejected, replaced, gone) are deleted once they are
// this many days old, at start and then every few hours; the database gives the space back.
import type { EventsRepo } from '../store/events-repo';

export const DEFAULT_RETENTION_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 6 * 60 * 60 * 1000;

export interface EventRetention {
  /** Prunes now; returns how many events went. */
  prune(): number;
  stop(): void;
}

export function startEventRetention(deps: { events: EventsRepo; now: () => Date; days: number; log(message: string): void; everyMs?: number }): EventRetention {
  const prune = (): number => deps.events.prune(new Date(deps.now().getTime() - deps.days * DAY_MS).toISOString());
  const timer = setInterval(() => {
    try {
      prune();
    } catch (error) {
      deps.log(`Pruning old events failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }, deps.everyMs ?? PRUNE_EVERY_MS);
  timer.unref();
  return { prune, stop: () => clearInterval(timer) };
}
