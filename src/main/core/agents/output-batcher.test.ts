import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOutputBatcher } from './output-batcher';

beforeEach(() => { vi.useFakeTimers(); });
afterEach(() => { vi.useRealTimers(); });

function batcher(maxPending = 1000) {
  const emitted: string[] = [];
  return { emitted, batcher: createOutputBatcher({ intervalMs: 50, maxPending, emit: (data) => emitted.push(data) }) };
}

describe('createOutputBatcher', () => {
  it('hands over everything pushed within one interval as one piece', () => {
    const { emitted, batcher: b } = batcher();
    b.push('a');
    b.push('b');
    expect(emitted).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(emitted).toEqual(['ab']);
  });

  it('hands over at once when a lot is waiting', () => {
    const { emitted, batcher: b } = batcher(4);
    b.push('ab');
    b.push('cd');
    expect(emitted).toEqual(['abcd']);
    vi.advanceTimersByTime(100);
    expect(emitted).toEqual(['abcd']);
  });

  it('flushes on demand and then emits nothing more for that output', () => {
    const { emitted, batcher: b } = batcher();
    b.push('tail');
    b.flush();
    vi.advanceTimersByTime(100);
    expect(emitted).toEqual(['tail']);
  });

  it('emits nothing when nothing waits', () => {
    const { emitted, batcher: b } = batcher();
    b.flush();
    b.push('');
    vi.advanceTimersByTime(100);
    expect(emitted).toEqual([]);
  });
});
