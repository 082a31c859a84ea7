// The one WebSocket to the core: every new event, replayed from the last seq seen after a reconnect.
import type { EVENTS_SUBPROTOCOL, EventEnvelope, EventsMessage } from '../../../shared/events';
import { apiRoutes } from '../../../shared/routes';
import type { Connection } from './desk-api';

const SUBPROTOCOL: typeof EVENTS_SUBPROTOCOL = 'assignment-desk.v1';
const MAX_BACKOFF_MS = 15_000;

export type SocketState = 'connecting' | 'live' | 'reconnecting' | 'closed';

export interface EventsSocketOptions {
  connection: Connection;
  /** The last seq the board has seen; the server replays everything after it. */
  after(): number;
  onEvents(events: EventEnvelope[]): void;
  onState(state: SocketState): void;
}

/** Where the socket listens, from the HTTP endpoint (ws:// for http://, wss:// for https://). */
export function eventsUrl(endpoint: string, after: number): string {
  const url = new URL(apiRoutes.events.path, endpoint);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('after', String(after));
  return url.toString();
}

/** Backoff before the nth reconnect: doubling from half a second, capped, with jitter so clients spread out. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(attempt, 10));
  return Math.round(base * (0.75 + random() * 0.5));
}

export function openEventsSocket(options: EventsSocketOptions): { close(): void } {
  let socket: WebSocket | undefined;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let lastSeen = options.after();

  const connect = () => {
    options.onState(attempt === 0 ? 'connecting' : 'reconnecting');
    lastSeen = Math.max(lastSeen, options.after());
    const ws = new WebSocket(eventsUrl(options.connection.endpoint, lastSeen), [SUBPROTOCOL, `bearer.${options.connection.token}`]);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      options.onState('live');
    };
    ws.onmessage = (message) => {
      if (typeof message.data !== 'string') return;
      let parsed: EventsMessage;
      try {
        parsed = JSON.parse(message.data);
      } catch {
        return;
      }
      if (parsed.type !== 'events' || !Array.isArray(parsed.events) || parsed.events.length === 0) return;
      lastSeen = Math.max(lastSeen, parsed.events.at(-1)?.seq ?? lastSeen);
      options.onEvents(parsed.events);
    };
    ws.onclose = () => {
      if (stopped) return;
      options.onState('reconnecting');
      timer = setTimeout(connect, backoffMs(attempt++));
    };
  };

  connect();
  return {
    close() {
      stopped = true;
      if (timer) clearTimeout(timer);
      socket?.close();
      options.onState('closed');
    },
  };
}
