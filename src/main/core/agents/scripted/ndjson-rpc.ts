// A tiny JSON-RPC 2.0 endpoint over newline-delimited JSON on Node streams, for the Kandev dialect's agent side.
// It answers parse errors (-32700) and unknown methods (-32601) and keeps reading; sends honour backpressure.
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

/** Thrown by a request handler to answer with this code and message. */
export class RpcError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

export interface RpcHandlers {
  /** Answers a request; throw RpcError(METHOD_NOT_FOUND, …) for methods it does not serve. */
  request(method: string, params: unknown): Promise<unknown>;
  notification(method: string, params: unknown): void;
}

export interface RpcEndpoint {
  /** Calls the other side; rejects with RpcError when it answers with an error. */
  request(method: string, params: unknown, signal?: AbortSignal): Promise<unknown>;
  /** Resolves once the output stream accepted the line (or closed). */
  notify(method: string, params: unknown): Promise<void>;
  /** Resolves when the input ends. */
  readonly closed: Promise<void>;
}

type Id = string | number;
interface Waiter { resolve(value: unknown): void; reject(error: Error): void }

export function serveNdjsonRpc(input: Readable, output: Writable, handlers: RpcHandlers): RpcEndpoint {
  const waiters = new Map<Id, Waiter>();
  let nextId = 1;
  let drained: Promise<void> | undefined;

  const send = (message: object): Promise<void> => {
    if (output.destroyed || output.writableEnded) return Promise.resolve();
    if (output.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`)) return Promise.resolve();
    // One shared wait for 'drain', so that many blocked senders add one listener, not one each.
    drained ??= new Promise<void>((resolve) => {
      const done = (): void => {
        output.off('drain', done).off('close', done);
        drained = undefined;
        resolve();
      };
      output.on('drain', done).on('close', done);
    });
    return drained;
  };
  const fail = (id: Id | null, code: number, message: string): Promise<void> => send({ id, error: { code, message } });

  const answer = async (id: Id, method: string, params: unknown): Promise<void> => {
    try {
      await send({ id, result: (await handlers.request(method, params)) ?? null });
    } catch (error) {
      if (error instanceof RpcError) await fail(id, error.code, error.message);
      else await fail(id, INTERNAL_ERROR, error instanceof Error ? error.message : String(error));
    }
  };

  const receive = (line: string): void => {
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      void fail(null, PARSE_ERROR, 'Parse error');
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      void fail(null, INVALID_REQUEST, 'Invalid request: expected a JSON object');
      return;
    }
    const { id, method, params, result, error } = message as Record<string, unknown>;
    const validId = typeof id === 'string' || typeof id === 'number' ? id : undefined;
    if (typeof method === 'string') {
      if (validId !== undefined) void answer(validId, method, params);
      else handlers.notification(method, params);
    } else if (validId !== undefined && waiters.has(validId)) {
      const waiter = waiters.get(validId) as Waiter;
      waiters.delete(validId);
      if (error !== undefined) {
        const { code, message: text } = (error ?? {}) as { code?: unknown; message?: unknown };
        waiter.reject(new RpcError(typeof code === 'number' ? code : INTERNAL_ERROR, typeof text === 'string' ? text : 'error'));
      } else {
        waiter.resolve(result);
      }
    } else if (validId !== undefined && result === undefined && error === undefined) {
      void fail(validId, INVALID_REQUEST, 'Invalid request: no method');
    }
    // Anything else is a response nobody waits for (e.g. to a request we gave up on): drop it.
  };

  const lines = createInterface({ input, crlfDelay: Infinity });
  lines.on('line', receive);
  const closed = new Promise<void>((resolve) => lines.once('close', resolve));
  void closed.then(() => {
    for (const waiter of waiters.values()) waiter.reject(new Error('The client closed the connection'));
    waiters.clear();
  });

  return {
    request(method, params, signal) {
      const id = nextId++;
      if (signal?.aborted) return Promise.reject(new Error('The request was cancelled'));
      return new Promise((resolve, reject) => {
        waiters.set(id, { resolve, reject });
        // Giving up only forgets the request; the runner has already moved on.
        signal?.addEventListener('abort', () => waiters.delete(id), { once: true });
        void send({ id, method, params });
      });
    },
    notify: (method, params) => send({ method, params }),
    closed,
  };
}
