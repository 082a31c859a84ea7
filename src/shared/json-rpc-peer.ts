// A JSON-RPC 2.0 peer over a message channel, for what the ACP SDK does not speak: the Kandev dialect, on both sides.
import { isObject } from './is-object';
import type { MessageChannel } from './ndjson-channel';

/**
 * An error the other side answered with, or one we answer with. Not a DeskError: its numeric `code` is the
 * JSON-RPC wire code both agents and the desk speak, and it never reaches an HTTP client as it is.
 */
export class JsonRpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
  }
}

/**
 * The other side went away (its process exited or its stream closed) while something was pending. A signal
 * inside the agent connection (the runner turns it into the task's error), never shown to a client as it is.
 */
export class PeerClosedError extends Error {}

export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

export type RequestHandler = (params: unknown) => Promise<unknown> | unknown;
export type NotificationHandler = (method: string, params: unknown) => void;
type Id = number | string;

export interface JsonRpcPeer {
  /** Calls the other side; rejects with JsonRpcError when it answers with an error. An abort only forgets the call. */
  request(method: string, params?: unknown, signal?: AbortSignal): Promise<unknown>;
  /** Resolves once the line is written (backpressure); a line the other side can no longer read is dropped. */
  notify(method: string, params?: unknown): Promise<void>;
  /** Serves one method the other side may call. Unknown methods are answered with -32601. */
  handle(method: string, handler: RequestHandler): void;
  onNotification(handler: NotificationHandler): void;
  /** Fails everything pending with `error`; later calls fail at once. */
  close(error: Error): void;
  /** Resolves with the reason once the channel has closed. */
  readonly closed: Promise<Error>;
}

export function createJsonRpcPeer(channel: MessageChannel): JsonRpcPeer {
  let nextId = 1;
  const pending = new Map<Id, { resolve(value: unknown): void; reject(error: Error): void }>();
  const handlers = new Map<string, RequestHandler>();
  let notificationHandler: NotificationHandler = () => {};
  const writer = channel.writable.getWriter();
  const closed = new Promise<Error>((resolve) => channel.onClose(resolve));

  const send = async (message: object): Promise<void> => {
    await writer.write({ jsonrpc: '2.0', ...message }).catch(() => {});
  };

  const answer = async (id: Id, method: string, params: unknown): Promise<void> => {
    const handler = handlers.get(method);
    if (!handler) {
      await send({ id, error: { code: METHOD_NOT_FOUND, message: `Method not found: ${method}` } });
      return;
    }
    try {
      await send({ id, result: (await handler(params)) ?? null });
    } catch (error) {
      const rpc = error instanceof JsonRpcError ? error : new JsonRpcError(INTERNAL_ERROR, error instanceof Error ? error.message : String(error));
      await send({ id, error: { code: rpc.code, message: rpc.message, ...(rpc.data !== undefined && { data: rpc.data }) } });
    }
  };

  const receive = (message: unknown): void => {
    if (!isObject(message)) {
      void send({ id: null, error: { code: INVALID_REQUEST, message: 'Invalid request: expected a JSON object' } });
      return;
    }
    const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
    if (typeof message.method === 'string') {
      if (id !== undefined) void answer(id, message.method, message.params);
      else notificationHandler(message.method, message.params);
      return;
    }
    const waiter = id === undefined ? undefined : pending.get(id);
    if (id !== undefined && waiter) {
      pending.delete(id);
      const error = isObject(message.error) ? message.error : undefined;
      if (error) {
        waiter.reject(new JsonRpcError(
          typeof error.code === 'number' ? error.code : INTERNAL_ERROR,
          typeof error.message === 'string' ? error.message : 'Unknown error',
          error.data,
        ));
      } else waiter.resolve(message.result);
    } else if (id !== undefined && !('result' in message) && !('error' in message)) {
      void send({ id, error: { code: INVALID_REQUEST, message: 'Invalid request: no method' } });
    }
    // Anything else answers a request nobody waits for any more (or reports our own malformed line): dropped.
  };

  channel.onClose((error) => {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  });
  void (async () => {
    const reader = channel.readable.getReader();
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
      if (done) break;
      receive(value);
    }
  })();

  return {
    request(method, params, signal) {
      if (channel.closedWith) return Promise.reject(channel.closedWith);
      if (signal?.aborted) return Promise.reject(new Error('The request was cancelled'));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        signal?.addEventListener('abort', () => pending.delete(id), { once: true });
        void send({ id, method, ...(params !== undefined && { params }) });
      });
    },
    notify: (method, params) => send({ method, ...(params !== undefined && { params }) }),
    handle(method, handler) { handlers.set(method, handler); },
    onNotification(handler) { notificationHandler = handler; },
    close: (error) => channel.close(error),
    closed,
  };
}
