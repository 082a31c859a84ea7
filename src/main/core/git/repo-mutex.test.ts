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

describe('createMutex shared tasks', () => {
  it('runs shared tasks side by side, and an exclusive one only after them all', async () => {
    const mutex = createMutex();
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = mutex.shared(async () => { log.push('a start'); await gate; log.push('a end'); });
    const second = mutex.shared(async () => { log.push('b start'); await gate; log.push('b end'); });
    const alone = mutex.run(async () => { log.push('alone'); });
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['a start', 'b start']);
    release();
    await Promise.all([first, second, alone]);
    expect(log.at(-1)).toBe('alone');
  });

  it('starts a shared task queued after an exclusive one only once that one has settled', async () => {
    const mutex = createMutex();
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const alone = mutex.run(async () => { log.push('alone start'); await gate; log.push('alone end'); });
    const after = mutex.shared(async () => { log.push('shared'); });
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['alone start']);
    release();
    await Promise.all([alone, after]);
    expect(log).toEqual(['alone start', 'alone end', 'shared']);
  });
});
