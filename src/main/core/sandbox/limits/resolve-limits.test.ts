import { describe, expect, it } from 'vitest';
import { describeLimits, resolveLimits } from './resolve-limits';

const machine = { totalMemoryMb: 16_384, cpus: 8 };

describe('resolveLimits', () => {
  it('takes every limit the policy sets', () => {
    expect(resolveLimits({ memoryMb: 300, pids: 64, cpus: 1.5 }, machine)).toEqual({
      memoryMb: { value: 300, fromPolicy: true }, pids: { value: 64, fromPolicy: true }, cpus: { value: 1.5, fromPolicy: true },
    });
  });

  it('gives a task half the machine\'s memory and 4096 processes by default, and leaves CPUs unlimited', () => {
    expect(resolveLimits(undefined, machine)).toEqual({ memoryMb: { value: 8192, fromPolicy: false }, pids: { value: 4096, fromPolicy: false } });
  });

  it('never defaults to less than 1 GB of memory on a small machine', () => {
    expect(resolveLimits({}, { totalMemoryMb: 1500, cpus: 1 }).memoryMb).toEqual({ value: 1024, fromPolicy: false });
  });

  it('fills the limits the policy leaves out with the defaults', () => {
    expect(resolveLimits({ pids: 100 }, machine)).toEqual({ memoryMb: { value: 8192, fromPolicy: false }, pids: { value: 100, fromPolicy: true } });
  });

  it('caps CPUs at what the machine has', () => {
    expect(resolveLimits({ cpus: 64 }, machine).cpus).toEqual({ value: 8, fromPolicy: true });
  });
});

describe('describeLimits', () => {
  it('says each limit and where it comes from', () => {
    expect(describeLimits(resolveLimits({ memoryMb: 300 }, machine))).toBe('memory 300 MB (policy), 4096 processes (default), CPUs not limited');
  });
});
