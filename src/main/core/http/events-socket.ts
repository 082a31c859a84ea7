// `GET /api/events`: a WebSocket streaming every new event, after replaying those after `?after=<seq>`.
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import type * as Ws from 'ws';
import type { WebSocket, WebSocketServer } from 'ws';
import { EVENTS_SUBPROTOCOL, type EventEnvelope, type EventsMessage } from '../../../shared/events';
import type { EventBus } from '../events/event-bus';
import type { EventsRepo } from '../store/events-repo';

const REPLAY_PAGE = 2000;
/** Events are sent in batches at most this often, so floods become few frames. */
const BATCH_MS = 15;
/** A client this far behind is disconnected; it can reconnect with `after` and catch up from the store. */
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;

export interface EventsSocket {
  /** Takes over an upgrade request that already passed the security checks. */
  accept(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

// Loaded at the first socket, not at start: the desk answers its first request sooner without it.
const requireWs = (): typeof Ws => createRequire(import.meta.url)('ws') as typeof Ws;

export function createEventsSocket(deps: { bus: EventBus; events: EventsRepo }): EventsSocket {
  let server: WebSocketServer | undefined;
  const serverNow = (): WebSocketServer => {
    if (server) return server;
    server = new (requireWs().WebSocketServer)({
      noServer: true,
      maxPayload: 64 * 1024,
      handleProtocols: (protocols) => (protocols.has(EVENTS_SUBPROTOCOL) ? EVENTS_SUBPROTOCOL : false),
    });
    server.on('connection', (socket: WebSocket, request: IncomingMessage) => {
      try {
        // `after=0` is a board that loaded an empty desk: it too must get what happened since, so only a missing `after` skips the replay.
        const raw = new URL(`http://desk${request.url ?? '/'}`).searchParams.get('after');
        const after = raw === null || raw === '' ? Number.NaN : Number(raw);
        stream(socket, Number.isInteger(after) && after >= 0 ? after : undefined);
      } catch {
        // The upgrade is done, so there is no HTTP answer left to give; 1011 tells the client the fault is ours.
        socket.close(1011, 'The desk could not start the event stream.');
      }
    });
    return server;
  };

  function stream(socket: WebSocket, after: number | undefined): void {
    let queue: EventEnvelope[] = [];
    let timer: NodeJS.Timeout | undefined;
    let lastSent = 0;

    const send = () => {
      timer = undefined;
      if (queue.length === 0 || socket.readyState !== socket.OPEN) return;
      if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
        socket.close(1013, `Too far behind; reconnect with after=${lastSent}`);
        return;
      }
      const message: EventsMessage = { type: 'events', events: queue };
      lastSent = queue.at(-1)?.seq ?? lastSent;
      queue = [];
      socket.send(JSON.stringify(message));
    };

    // The store reads are synchronous, so no event can slip between the replay and the subscription.
    if (after !== undefined) {
      for (let page = deps.events.listAfter(after, REPLAY_PAGE); page.length > 0; page = deps.events.listAfter(lastSent, REPLAY_PAGE)) {
        socket.send(JSON.stringify({ type: 'events', events: page } satisfies EventsMessage));
        lastSent = page.at(-1)?.seq ?? lastSent;
      }
    }
    const unsubscribe = deps.bus.subscribe((event) => {
      if (event.seq <= lastSent) return;
      queue.push(event);
      timer ??= setTimeout(send, BATCH_MS);
    });
    socket.on('close', () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    });
    socket.on('error', () => socket.terminate());
  }

  return {
    accept(request, socket, head) {
      const wss = serverNow();
      wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
    },
    close() {
      if (!server) return;
      for (const client of server.clients) client.terminate();
      server.close();
    },
  };
}
