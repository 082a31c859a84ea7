// What the task service starts without waiting: tracked until it ends, and its failures told, never unhandled.
import { describe, expect, it } from 'vitest';
import { createBackgroundWork } from './background-work';

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('background work', () => {
  it('is waited for, including work it starts meanwhile', async () => {
    const done: string[] = [];
    const work = createBackgroundWork();
    work.run(async () => {
      await later(20);
      done.push('first');
      work.run(async () => { await later(20); done.push('second'); }, () => undefined);
    }, () => undefined);
    await work.settled();
    expect(done).toEqual(['first', 'second']);
  });

  it('tells what failed, and still settles when telling fails too', async () => {
    const told: string[] = [];
    const work = createBackgroundWork();
    work.run(async () => { throw new Error('the database is closed'); }, (message) => told.push(message));
    work.run(async () => { throw new Error('again'); }, () => { throw new Error('no log either'); });
    work.run(() => { throw new Error('before any await'); }, (message) => told.push(message));
    await work.settled();
    expect(told.sort()).toEqual(['before any await', 'the database is closed']);
  });

  it('settles at once when nothing runs', async () => {
    await expect(createBackgroundWork().settled()).resolves.toBeUndefined();
  });
});
