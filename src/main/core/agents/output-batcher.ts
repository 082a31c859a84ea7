// Gathers a flood of small output pieces into fewer, larger events: one per interval, or sooner when a
// lot is waiting, so the store and the WebSocket see tens of events a second instead of thousands.

export interface OutputBatcher {
  push(data: string): void;
  /** Hands over whatever is waiting now (callers flush before an exit event, so output never trails it). */
  flush(): void;
}

export interface OutputBatcherOptions {
  intervalMs: number;
  /** Flush at once when this many characters wait (a cheap stand-in for bytes; close enough for sizing). */
  maxPending: number;
  emit(data: string): void;
}

export function createOutputBatcher(options: OutputBatcherOptions): OutputBatcher {
  let pending: string[] = [];
  let pendingLength = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pendingLength === 0) return;
    const data = pending.join('');
    pending = [];
    pendingLength = 0;
    options.emit(data);
  };

  return {
    push(data) {
      if (data === '') return;
      pending.push(data);
      pendingLength += data.length;
      if (pendingLength >= options.maxPending) flush();
      else timer ??= setTimeout(flush, options.intervalMs);
    },
    flush,
  };
}
