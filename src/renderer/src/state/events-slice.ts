// The events socket and per-task streams. Socket messages are batched into one store update per frame;
// streams (rows, terminal output) live outside React state and a version number tells views to redraw.
import type { EventEnvelope } from '../../../shared/events';
import type { SocketState } from '../api/events-socket';
import { messageOf } from '../api/api-error';
import { applyEvents } from './board-reducer';
import type { SliceCreator } from './store-types';
import { appendToStream, createStream, type TaskStream } from './task-stream';

export interface EventsSlice {
  socketState: SocketState | 'idle';
  /** Bumped whenever a task's stream changes; views subscribe to it, then read the stream. */
  streamVersion: Record<string, number>;
  /** Whether a task's history is still loading, and what went wrong if it failed. */
  streamLoading: Record<string, boolean>;
  streamError: Record<string, string | undefined>;
  streamOf(taskId: string): TaskStream | undefined;
  openStream(taskId: string): void;
  closeStream(taskId: string): void;
  receive(events: EventEnvelope[]): void;
  connectEvents(): void;
  disconnectEvents(): void;
}

interface OpenStream { stream: TaskStream; loading: boolean; early: EventEnvelope[] }

export const createEventsSlice: SliceCreator<EventsSlice> = (set, get, deps) => {
  const streams = new Map<string, OpenStream>();
  let pending: EventEnvelope[] = [];
  let scheduled = false;
  let socket: { close(): void } | undefined;

  const bump = (ids: Iterable<string>) => {
    const versions = { ...get().streamVersion };
    for (const id of ids) versions[id] = (versions[id] ?? 0) + 1;
    return versions;
  };

  const flush = () => {
    scheduled = false;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    const changed = new Set<string>();
    for (const [taskId, open] of streams) {
      const mine = batch.filter((envelope) => envelope.taskId === taskId);
      if (mine.length === 0) continue;
      if (open.loading) open.early.push(...mine);
      else if (appendToStream(open.stream, mine)) changed.add(taskId);
    }
    const state = get();
    const board = applyEvents(state, batch);
    set({ ...(board !== state && board), ...(changed.size > 0 && { streamVersion: bump(changed) }) });
    state.taskEventsApplied(batch);
  };

  async function loadHistory(taskId: string, open: OpenStream): Promise<void> {
    const api = get().api;
    if (!api) return;
    let after = 0;
    try {
      for (let first = true; ; first = false) {
        const page = await api.taskEvents(taskId, after);
        if (streams.get(taskId) !== open) return;
        appendToStream(open.stream, page.events);
        // Show the first page at once; later pages are drawn once, at the end, not once each.
        if (first) set({ streamVersion: bump([taskId]) });
        if (page.nextAfter === undefined) break;
        after = page.nextAfter;
      }
      appendToStream(open.stream, open.early);
      open.early = [];
      open.loading = false;
      set((state) => ({ streamVersion: bump([taskId]), streamLoading: { ...state.streamLoading, [taskId]: false } }));
    } catch (error) {
      if (streams.get(taskId) !== open) return;
      open.loading = false;
      appendToStream(open.stream, open.early);
      set((state) => ({ streamLoading: { ...state.streamLoading, [taskId]: false }, streamError: { ...state.streamError, [taskId]: messageOf(error) } }));
    }
  }

  return {
    socketState: 'idle',
    streamVersion: {},
    streamLoading: {},
    streamError: {},
    streamOf: (taskId) => streams.get(taskId)?.stream,
    openStream(taskId) {
      if (streams.has(taskId)) return;
      const open: OpenStream = { stream: createStream(), loading: true, early: [] };
      streams.set(taskId, open);
      set((state) => ({ streamLoading: { ...state.streamLoading, [taskId]: true }, streamError: { ...state.streamError, [taskId]: undefined } }));
      void loadHistory(taskId, open);
    },
    closeStream(taskId) {
      streams.delete(taskId);
    },
    receive(events) {
      pending.push(...events);
      if (scheduled) return;
      scheduled = true;
      deps.schedule(flush);
    },
    connectEvents() {
      const api = get().api;
      if (!api || socket) return;
      socket = deps.openSocket({
        connection: api.connection,
        after: () => Math.max(get().lastSeq, pending.at(-1)?.seq ?? 0),
        onEvents: (events) => get().receive(events),
        onState: (socketState) => set({ socketState }),
      });
    },
    disconnectEvents() {
      socket?.close();
      socket = undefined;
    },
  };
};
