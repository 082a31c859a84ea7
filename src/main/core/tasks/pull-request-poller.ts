// Reads open pull/merge requests again from their forges while any is open: one timer, armed only while there is
// something to read, at most once per interval, never two runs at once, and not before a forge that limits the rate
// lets the desk ask again.
export const PULL_REQUEST_POLL_MS = 60_000;

export interface PullRequestPoller {
  /** Arms the timer if a request is open and none is armed; call it when a request may have opened. */
  wake(): void;
  /** Disarms the timer and waits for a run in progress; nothing runs afterwards. */
  stop(): Promise<void>;
}

export interface PullRequestPollerDeps {
  /** Whether any task's request is open now. */
  anyOpen(): boolean;
  /**
   * Reads every open request once; must not reject (failures are the refresher's to report). `retryAt` (ms since the
   * epoch): a forge limits the rate until then, so the next run waits at least that long.
   */
  refreshAll(): Promise<{ retryAt?: number } | void>;
  intervalMs: number;
  now?(): number;
  log(message: string): void;
}

export function startPullRequestPoller(deps: PullRequestPollerDeps): PullRequestPoller {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  let retryAt = 0;
  const now = deps.now ?? Date.now;

  function arm(): void {
    if (stopped || timer !== undefined || running !== undefined || !deps.anyOpen()) return;
    timer = setTimeout(run, Math.max(deps.intervalMs, retryAt - now()));
    // The desk closes on its own terms; a pending poll is no reason to keep the process alive.
    timer.unref();
  }

  function run(): void {
    timer = undefined;
    // Started a microtask later, so `running` is set before the refresh can wake the poller (and a throw is caught).
    running = Promise.resolve()
      .then(() => deps.refreshAll())
      .then((outcome) => { retryAt = outcome?.retryAt ?? 0; })
      .catch((error: unknown) => deps.log(`Reading pull requests from their forges failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        running = undefined;
        // The next run is timed from the end of this one, so slow forges never make runs overlap.
        arm();
      });
  }

  arm();
  return {
    wake: arm,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
