import { describe, expect, it } from 'vitest';
import { createTaskLock } from './task-locks';

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a task lock', () => {
  it('runs one id’s operations in order, a failed one included, and other ids alongside', async () => {
    const withTaskLock = createTaskLock();
    const order: string[] = [];
    const first = withTaskLock('a', async () => { await later(20); order.push('a1'); throw new Error('a1 failed'); });
    const second = withTaskLock('a', async () => { order.push('a2'); return 2; });
    const other = withTaskLock('b', async () => { order.push('b1'); return 1; });
    await expect(first).rejects.toThrow('a1 failed');
    expect(await second).toBe(2);
    expect(await other).toBe(1);
    expect(order).toEqual(['b1', 'a1', 'a2']);
  });
});
