import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchQuiet } from './run-watch';

describe('watchQuiet', () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  const start = (limit = 1000) => {
    const seen: (number | undefined)[] = [];
    const timer = watchQuiet({ limitMs: () => limit, now: () => Date.now(), onQuiet: (since) => seen.push(since) });
    return { timer, seen };
  };

  it('says the agent went quiet once the limit passes without a word, naming its last word', () => {
    const { seen } = start();
    const began = Date.now();
    vi.advanceTimersByTime(900);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(400);
    expect(seen).toEqual([began]);
    vi.advanceTimersByTime(5000);
    expect(seen).toHaveLength(1);
  });

  it('clears it when the agent speaks again, and counts from that word', () => {
    const { timer, seen } = start();
    vi.advanceTimersByTime(1300);
    timer.word();
    expect(seen.at(-1)).toBeUndefined();
    vi.advanceTimersByTime(600);
    expect(seen).toHaveLength(2);
  });

  it('does not count time a person holds the agent up', () => {
    const { timer, seen } = start();
    timer.hold(true);
    vi.advanceTimersByTime(10_000);
    expect(seen).toEqual([]);
    timer.hold(false);
    vi.advanceTimersByTime(1300);
    expect(seen).toHaveLength(1);
  });

  it('clears a quiet turn when the watch stops', () => {
    const { timer, seen } = start();
    vi.advanceTimersByTime(1300);
    timer.stop();
    expect(seen).toHaveLength(2);
    expect(seen[1]).toBeUndefined();
  });
});
