// The pull request poller's timing rules, on vitest's clock: nothing while no request is open, at most one run per
// interval, never two at once, nothing after stop.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPullRequestPoller } from './pull-request-poller';

const INTERVAL = 60_000;

function poller(state: { open: boolean }, refreshAll: () => Promise<void> = async () => {}) {
  const refresh = vi.fn(refreshAll);
  const logged: string[] = [];
  const started = startPullRequestPoller({ anyOpen: () => state.open, refreshAll: refresh, intervalMs: INTERVAL, log: (line) => logged.push(line) });
  return { started, refresh, logged };
}

describe('pull request poller', () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  it('reads nothing while no request is open', async () => {
    const { refresh } = poller({ open: false });
    await vi.advanceTimersByTimeAsync(10 * INTERVAL);
    expect(refresh).not.toHaveBeenCalled();
  });

  it('reads open requests once per interval, not before', async () => {
    const { refresh } = poller({ open: true });
    await vi.advanceTimersByTimeAsync(INTERVAL - 1);
    expect(refresh).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2 * INTERVAL);
    expect(refresh).toHaveBeenCalledTimes(3);
  });

  it('starts reading once woken after a request opened', async () => {
    const state = { open: false };
    const { started, refresh } = poller(state);
    state.open = true;
    started.wake();
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('stops reading once no request is open', async () => {
    const state = { open: true };
    const { refresh } = poller(state, async () => { state.open = false; });
    await vi.advanceTimersByTimeAsync(5 * INTERVAL);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('never starts a run while the last one is still reading', async () => {
    let finish: () => void = () => {};
    const { started, refresh } = poller({ open: true }, () => new Promise<void>((resolve) => { finish = resolve; }));
    await vi.advanceTimersByTimeAsync(INTERVAL);
    started.wake();
    await vi.advanceTimersByTimeAsync(5 * INTERVAL);
    expect(refresh).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('arms nothing when the run itself wakes the poller', async () => {
    let finish: () => void = () => {};
    const wakes: Array<() => void> = [];
    const { started, refresh } = poller({ open: true }, () => {
      wakes.forEach((wake) => wake());
      return new Promise<void>((resolve) => { finish = resolve; });
    });
    wakes.push(started.wake);
    await vi.advanceTimersByTimeAsync(5 * INTERVAL);
    expect(refresh).toHaveBeenCalledTimes(1);
    finish();
  });

  it('logs a failed run and keeps reading', async () => {
    const { refresh, logged } = poller({ open: true }, () => Promise.reject(new Error('forge on fire')));
    await vi.advanceTimersByTimeAsync(2 * INTERVAL);
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(logged[0]).toContain('forge on fire');
  });

  it('reads nothing after stop, and waits for the run in progress', async () => {
    let finish: () => void = () => {};
    const { started, refresh } = poller({ open: true }, () => new Promise<void>((resolve) => { finish = resolve; }));
    await vi.advanceTimersByTimeAsync(INTERVAL);
    let stopped = false;
    const stopping = started.stop().then(() => { stopped = true; });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    started.wake();
    await vi.advanceTimersByTimeAsync(5 * INTERVAL);
    expect(refresh).toHaveBeenCalledTimes(1);
  });
});

describe('pull request poller and rate limits', () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  it('waits until the forge lets it ask again when that is later than the interval', async () => {
    let limited = true;
    const refresh = vi.fn(async () => (limited ? { retryAt: Date.now() + 5 * INTERVAL } : undefined));
    startPullRequestPoller({ anyOpen: () => true, refreshAll: refresh, intervalMs: INTERVAL, log: () => {} });
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(refresh).toHaveBeenCalledTimes(1);
    limited = false;
    await vi.advanceTimersByTimeAsync(5 * INTERVAL - 1);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(refresh).toHaveBeenCalledTimes(3);
  });
});
