// How a scripted turn stops early: one AbortSignal per turn, and helpers that make every wait give way to it.

/** Thrown inside a turn once its signal is aborted; the runner turns it into stopReason `cancelled` (control flow, never shown: not a DeskError). */
export class TurnCancelled extends Error {
  constructor() {
    super('The turn was cancelled');
  }
}

export function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw new TurnCancelled();
}

/**
 * Settles like `work`, unless the signal aborts first: then it rejects with TurnCancelled at once.
 * Peers may answer a cancelled request late or never, and a cancel must not wait for them.
 */
export function untilCancelled<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => {});
    return Promise.reject(new TurnCancelled());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new TurnCancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? new TurnCancelled() : error);
      },
    );
  });
}

/** Waits `ms`, or less if the turn is cancelled (then rejects with TurnCancelled). */
export function cancellableSleep(ms: number, signal: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const slept = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return untilCancelled(slept, signal).finally(() => clearTimeout(timer));
}

/** A cancellation, whether it surfaced as our own error or as a peer's error after the abort. */
export function isCancellation(error: unknown, signal: AbortSignal): boolean {
  return error instanceof TurnCancelled || signal.aborted;
}

/** A human-readable reason, for failure messages sent to the client. */
export function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // JSON-RPC peers wrap a plain thrown error as "Internal error" with the real message in `data.details`.
  const details = (error as { data?: { details?: unknown } | null }).data?.details;
  return typeof details === 'string' && details !== '' ? `${error.message}: ${details}` : error.message;
}
