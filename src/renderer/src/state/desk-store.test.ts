import { describe, expect, it } from 'vitest';
import type { EventEnvelope, EventPage } from '../../../shared/events';
import { ApiError } from '../api/api-error';
import type { DeskApi } from '../api/desk-api';
import type { EventsSocketOptions } from '../api/events-socket';
import { createDeskStore, type DeskStore } from './desk-store';
import type { DeskState } from './store-types';
import { chunk, envelope, summary } from './test-events';

function fakeApi(overrides: Partial<DeskApi> = {}): DeskApi {
  return {
    connection: { endpoint: 'http://127.0.0.1:1', token: 't' },
    listTasks: async (query = {}) => ({ tasks: query.status?.includes('queued') ? [summary('t1'), summary('t2')] : [], lastSeq: 7, cursor: 'x.1', total: 2 }),
    task: async (id: string) => ({ ...summary(id), prompt: `prompt of ${id}`, unmetDependencies: [], baseBranch: 'main', attempt: 1, turns: [] }),
    ...overrides,
  } as DeskApi;
}

function setup(api: DeskApi = fakeApi()) {
  const frames: (() => void)[] = [];
  let socket: EventsSocketOptions | undefined;
  const store = createDeskStore({
    schedule: (work) => void frames.push(work),
    openSocket: (options) => {
      socket = options;
      return { close: () => undefined };
    },
  });
  const flushFrames = () => frames.splice(0).forEach((work) => work());
  return { store, frames, flushFrames, socket: () => socket as EventsSocketOptions, api };
}

/** Resolves once the store's state satisfies `check`, checking now and after each change. */
function untilState(store: DeskStore, check: (state: DeskState) => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (check(store.getState())) return resolve();
    const stop = store.subscribe((state) => {
      if (!check(state)) return;
      stop();
      resolve();
    });
  });
}

describe('desk store', () => {
  it('loads active tasks in full and finished ones a page at a time, newest first, older pages on request', async () => {
    const asked: string[] = [];
    const done = (id: string, submittedAt: string) => summary(id, { status: 'completed', review: 'approved', submittedAt });
    const api = fakeApi({
      listTasks: async (query = {}) => {
        asked.push(JSON.stringify(query));
        if (query.status?.includes('queued')) return { tasks: [summary('q1', { submittedAt: '2025-01-01T10:00:05.000Z' })], lastSeq: 3, cursor: 'x.1', total: 1 };
        if (query.order !== 'desc') return { tasks: [], lastSeq: 3, cursor: 'x.1', total: 0 };
        return query.after === undefined
          ? { tasks: [done('d3', '2025-01-01T10:00:03.000Z')], lastSeq: 3, cursor: 'x.1', total: 2, next: 3 }
          : { tasks: [done('d1', '2025-01-01T10:00:01.000Z')], lastSeq: 3, cursor: 'x.1', total: 2 };
      },
    });
    const { store } = setup(api);
    await store.getState().start(api);
    expect(store.getState().order).toEqual(['d3', 'q1']);
    expect(store.getState().finishedNext).toBe(3);
    await store.getState().loadMoreFinished();
    expect(store.getState().order).toEqual(['d1', 'd3', 'q1']);
    expect(store.getState().finishedNext).toBeUndefined();
    expect(asked.filter((q) => q.includes('"after":3'))).toHaveLength(1);
  });


  it('loads the tasks, then opens the socket after the last seq', async () => {
    const { store, socket } = setup();
    await store.getState().start(fakeApi());
    expect(store.getState().order).toEqual(['t1', 't2']);
    expect(socket().after()).toBe(7);
  });

  it('batches socket messages into one store update per frame', async () => {
    const { store, socket, flushFrames } = setup();
    await store.getState().start(fakeApi());
    let updates = 0;
    store.subscribe(() => updates++);
    socket().onEvents([envelope(8, 't1', { type: 'task', task: summary('t1', { status: 'in-progress' }) })]);
    socket().onEvents([envelope(9, 't2', { type: 'task', task: summary('t2', { status: 'in-progress' }) })]);
    expect(updates).toBe(0);
    flushFrames();
    expect(updates).toBe(1);
    expect(store.getState().tasks.t2?.status).toBe('in-progress');
  });

  it('shows the server message naming the cycle when a link is refused', async () => {
    const refusal = new ApiError(409, 'conflict', 'These dependencies would close a cycle: t1 → t2 → t1');
    const api = fakeApi({ addDependency: async () => { throw refusal; } });
    const { store } = setup(api);
    await store.getState().start(api);
    expect(await store.getState().linkTask('t2', 't1')).toBe(false);
    expect(store.getState().toasts.filter((toast) => toast.kind === 'alert').map((toast) => toast.text)).toEqual(['These dependencies would close a cycle: t1 → t2 → t1']);
  });

  it('loads a task history page by page and then applies the live events that came meanwhile', async () => {
    let release: (page: EventPage) => void = () => undefined;
    const pages: Promise<EventPage>[] = [
      Promise.resolve({ events: [envelope(1, 't1', chunk('A'))], nextAfter: 1 }),
      new Promise((resolve) => { release = resolve; }),
    ];
    const api = fakeApi({ taskEvents: async () => pages.shift() as Promise<EventPage> });
    const { store, socket, flushFrames } = setup(api);
    await store.getState().start(api);
    store.getState().openTask('t1');
    const live: EventEnvelope[] = [envelope(8, 't1', chunk('C'))];
    socket().onEvents(live);
    flushFrames();
    release({ events: [envelope(2, 't1', chunk('B'))] });
    await untilState(store, (state) => state.streamLoading.t1 === false);
    expect(store.getState().streamOf('t1')?.items).toEqual([{ key: '1', kind: 'message', role: 'agent', text: 'ABC' }]);
    expect(store.getState().streamLoading.t1).toBe(false);
  });
});
