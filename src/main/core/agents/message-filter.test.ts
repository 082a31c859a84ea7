import { describe, expect, it } from 'vitest';
import { filterMessages } from './message-filter';
import { readAll } from './test-support/read-all';

const streamOf = (messages: unknown[], error?: Error) => new ReadableStream<unknown>({
  start(controller) {
    for (const message of messages) controller.enqueue(message);
    if (error) controller.error(error);
    else controller.close();
  },
});

describe('filterMessages', () => {
  it('passes on the messages kept, in order, and ends when the source ends', async () => {
    const looked: unknown[] = [];
    const kept = filterMessages(streamOf([1, 2, 3, 4, 5]), (n) => { looked.push(n); return n !== 2 && n !== 3; });
    expect(await readAll(kept)).toEqual([1, 4, 5]);
    expect(looked).toEqual([1, 2, 3, 4, 5]);
  });

  it('fails with the error the source fails with', async () => {
    await expect(readAll(filterMessages(streamOf([1], new Error('agent gone')), () => true))).rejects.toThrow('agent gone');
  });

  it('cancels the source when it is cancelled', async () => {
    let cancelledWith: unknown;
    const source = new ReadableStream<unknown>({ pull(controller) { controller.enqueue('x'); }, cancel(reason) { cancelledWith = reason; } });
    await filterMessages(source, () => true).cancel('done');
    expect(cancelledWith).toBe('done');
  });
});
