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

  describe('while the silence lasts', () => {
    const startRepeating = (limit = 1000) => {
      const still: number[] = [];
      const timer = watchQuiet({ limitMs: () => limit, now: () => Date.now(), onQuiet: () => {}, onStill: (since) => still.push(since) });
      return { timer, still };
    };

    it('says so again after twice the limit, then after gaps that double', () => {
      const { still } = startRepeating();
      const began = Date.now();
      vi.advanceTimersByTime(1300);
      expect(still).toEqual([]);
      vi.advanceTimersByTime(1000);
      expect(still).toEqual([began]);
      vi.advanceTimersByTime(1500);
      expect(still).toHaveLength(1);
      vi.advanceTimersByTime(1000);
      expect(still).toHaveLength(2);
    });

    it('repeats at most every five minutes, however long the turn is stuck', () => {
      const { still } = startRepeating(60_000);
      vi.advanceTimersByTime(60 * 60_000);
      // 1 min quiet, then repeats at +1, +2, +4 min, then every 5 min until the hour is out.
      expect(still.length).toBeGreaterThanOrEqual(12);
      expect(still.length).toBeLessThanOrEqual(13);
    });

    it('stops repeating once the agent speaks', () => {
      const { timer, still } = startRepeating();
      vi.advanceTimersByTime(1300);
      timer.word();
      vi.advanceTimersByTime(1900);
      expect(still).toEqual([]);
    });
  });
});
