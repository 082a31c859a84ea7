import { describe, expect, it } from 'vitest';
import { createMutex } from './repo-mutex';

describe('createMutex', () => {
  it('runs queued tasks one at a time, in the order they were queued', async () => {
    const mutex = createMutex();
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = mutex.run(async () => { log.push('first start'); await gate; log.push('first end'); });
    const second = mutex.run(async () => { log.push('second'); });
    await Promise.resolve();
    expect(log).toEqual(['first start']);
    release();
    await Promise.all([first, second]);
    expect(log).toEqual(['first start', 'first end', 'second']);
  });

  it('keeps going after a task fails, and hands the failure to that task\'s caller', async () => {
    const mutex = createMutex();
    const failing = mutex.run(async () => { throw new Error('boom'); });
    const next = mutex.run(async () => 42);
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe(42);
  });
});
