// A JSON-RPC 2.0 peer over newline-delimited JSON on a pair of Node streams, used by every agent dialect.
import type { Readable, Writable } from 'node:stream';
import { createInterface } from 'node:readline';

/** An error the other side answered with, or one we answer with. */
export class JsonRpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
  }
}

/** The peer went away (the process exited or its stream closed) while something was pending. */
export class PeerClosedError extends Error {}

export type RequestHandler = (params: unknown) => Promise<unknown> | unknown;
export type NotificationHandler = (method: string, params: unknown) => void;

export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

interface Pending { resolve(value: unknown): void; reject(error: Error): void }

export interface JsonRpcPeer {
  request(method: string, params?: unknown): Promise<unknown>;
  notify(method: string, params?: unknown): void;
  /** Serves one method the other side may call. Unknown methods are answered with -32601. */
  handle(method: string, handler: RequestHandler): void;
  onNotification(handler: NotificationHandler): void;
  /** Lines that are not JSON-RPC (agents sometimes print to stdout by mistake). */
  onNoise(handler: (line: string) => void): void;
  /** Fails everything pending with `error`; later calls fail at once. */
  close(error: Error): void;
  readonly closed: Promise<Error>;
}

export function createJsonRpcPeer(input: Readable, output: Writable): JsonRpcPeer {
  let nextId = 1;
  const pending = new Map<number | string, Pending>();
  const handlers = new Map<string, RequestHandler>();
  let notificationHandler: NotificationHandler = () => {};
  let noiseHandler: (line: string) => void = () => {};
  let closedWith: Error | undefined;
  let signalClosed: (error: Error) => void = () => {};
  const closed = new Promise<Error>((resolve) => { signalClosed = resolve; });

  const send = (message: object): void => {
    if (closedWith || output.destroyed || !output.writable) return;
    output.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  };

  const answer = async (id: number | string, method: string, params: unknown): Promise<void> => {
    const handler = handlers.get(method);
    if (!handler) {
      send({ id, error: { code: METHOD_NOT_FOUND, message: `Method not found: ${method}` } });
      return;
    }
    try {
      send({ id, result: (await handler(params)) ?? null });
    } catch (error) {
      const rpc = error instanceof JsonRpcError ? error : new JsonRpcError(INTERNAL_ERROR, error instanceof Error ? error.message : String(error));
      send({ id, error: { code: rpc.code, message: rpc.message, ...(rpc.data === undefined ? {} : { data: rpc.data }) } });
    }
  };

  const receive = (line: string): void => {
    if (line.trim() === '') return;
    let message: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(line);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      message = parsed as Record<string, unknown>;
    } catch {
      noiseHandler(line);
      return;
    }
    const id = message.id as number | string | undefined | null;
    const method = typeof message.method === 'string' ? message.method : undefined;
    if (method !== undefined && id !== undefined && id !== null) {
      void answer(id, method, message.params);
    } else if (method !== undefined) {
      notificationHandler(method, message.params);
    } else if (id !== undefined && id !== null && pending.has(id)) {
      const waiter = pending.get(id) as Pending;
      pending.delete(id);
      const error = message.error as { code?: number; message?: string; data?: unknown } | undefined;
      if (error) waiter.reject(new JsonRpcError(error.code ?? INTERNAL_ERROR, error.message ?? 'Unknown error', error.data));
      else waiter.resolve(message.result);
    } else if (id === null && message.error) {
      // The other side could not parse something we sent; nothing is waiting for it by id.
      noiseHandler(line);
    }
  };

  const lines = createInterface({ input, crlfDelay: Infinity });
  lines.on('line', receive);
  lines.on('close', () => close(new PeerClosedError('The agent closed its output')));
  output.on('error', (error) => close(new PeerClosedError(`Cannot write to the agent: ${error.message}`)));

  function close(error: Error): void {
    if (closedWith) return;
    closedWith = error;
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
    lines.close();
    signalClosed(error);
  }

  return {
    request(method, params) {
      if (closedWith) return Promise.reject(closedWith);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        send({ id, method, ...(params === undefined ? {} : { params }) });
      });
    },
    notify(method, params) {
      send({ method, ...(params === undefined ? {} : { params }) });
    },
    handle(method, handler) { handlers.set(method, handler); },
    onNotification(handler) { notificationHandler = handler; },
    onNoise(handler) { noiseHandler = handler; },
    close,
    closed,
  };
}
