import { describe, expect, it } from 'vitest';
import { settledAll } from './settled-all';

describe('settledAll', () => {
  it('throws the first rejection only after the slower steps have finished', async () => {
    let slowDone = false;
    const slow = new Promise<void>((resolve) => setTimeout(() => { slowDone = true; resolve(); }, 20));
    const failing = Promise.reject(new Error('first'));
    const later = Promise.reject(new Error('second'));
    await expect(settledAll([slow, failing, later])).rejects.toThrow('first');
    expect(slowDone).toBe(true);
  });

  it('resolves when every step does', async () => {
    await expect(settledAll([Promise.resolve(1), Promise.resolve('two')])).resolves.toBeUndefined();
  });
});
