// The agent's side of an ACP connection without the ACP SDK's runtime, whose schemas cost ~50 ms of CPU at every
// start: JSON-RPC over an ndjson transport, answering on the wire as the SDK's agent app does (codes, messages, gate).
import type {
  CreateElicitationRequest,
  CreateElicitationResponse,
  CreateTerminalRequest,
  CreateTerminalResponse,
  KillTerminalRequest,
  KillTerminalResponse,
  ReadTextFileRequest,
  ReadTextFileResponse,
  ReleaseTerminalRequest,
  ReleaseTerminalResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionNotification,
  TerminalOutputRequest,
  TerminalOutputResponse,
  WaitForTerminalExitRequest,
  WaitForTerminalExitResponse,
  WriteTextFileRequest,
  WriteTextFileResponse,
} from '@agentclientprotocol/sdk';
import { isObject } from '../shared/is-object';
import { INVALID_REQUEST, JsonRpcError, METHOD_NOT_FOUND } from '../shared/json-rpc-peer';
import { errorAnswer, invalidMessageAnswer, isRequestId, REQUEST_CANCELLED, type RequestId } from './acp-wire';
import type { MessageTransport } from './stdio-transport';

/** The client's methods the agent may call: what each takes and what it answers. */
export interface ClientRequests {
  'session/request_permission': [RequestPermissionRequest, RequestPermissionResponse];
  'fs/read_text_file': [ReadTextFileRequest, ReadTextFileResponse];
  'fs/write_text_file': [WriteTextFileRequest, WriteTextFileResponse];
  'terminal/create': [CreateTerminalRequest, CreateTerminalResponse];
  'terminal/output': [TerminalOutputRequest, TerminalOutputResponse];
  'terminal/wait_for_exit': [WaitForTerminalExitRequest, WaitForTerminalExitResponse];
  'terminal/kill': [KillTerminalRequest, KillTerminalResponse];
  'terminal/release': [ReleaseTerminalRequest, ReleaseTerminalResponse];
  'elicitation/create': [CreateElicitationRequest, CreateElicitationResponse];
}

export interface ClientNotifications {
  'session/update': SessionNotification;
}

// The SDK turns a `null` answer to these into `{}`: their answers carry nothing but `_meta`.
const EMPTY_ANSWERS = new Set<string>(['fs/write_text_file', 'terminal/kill', 'terminal/release']);
const CANCEL_REQUEST = '$/cancel_request';
const INITIALIZE = 'initialize';

export interface RequestOptions {
  /** Aborting it sends `$/cancel_request` for the call. */
  cancellationSignal?: AbortSignal;
  /** With a cancel, reject at once (-32800) instead of waiting for the client's late answer. */
  stopWaitingOnCancel?: boolean;
}

/** What a handler may call on the client while it runs. */
export interface AcpClient {
  request<M extends keyof ClientRequests>(method: M, params: ClientRequests[M][0], options?: RequestOptions): Promise<ClientRequests[M][1]>;
  notify<M extends keyof ClientNotifications>(method: M, params: ClientNotifications[M]): Promise<void>;
}

/** One request from the client; `signal` aborts on its `$/cancel_request` or when the connection closes. */
export interface IncomingRequest { params: unknown; signal: AbortSignal }

export interface AgentHandlers {
  /** By method; a method not here is answered with -32601 (after initialize; before it, the gate's -32600). */
  requests: ReadonlyMap<string, (request: IncomingRequest) => unknown>;
  notifications: ReadonlyMap<string, (params: unknown) => void>;
}

export interface AcpAgentConnection {
  readonly client: AcpClient;
  /** Resolves once the client's stream has ended (or a write to it failed). */
  readonly closed: Promise<void>;
}

interface Pending { resolve(value: unknown): void; reject(error: unknown): void; abandoned: boolean; cleanup(): void }

export function connectAcpAgent(transport: MessageTransport, handlers: AgentHandlers): AcpAgentConnection {
  const pending = new Map<RequestId, Pending>();
  const incoming = new Map<RequestId, AbortController>();
  // Ids count from 0, as the SDK's do.
  let nextId = 0;
  let initialized = false;

  // Nothing goes out once the client has gone, as with the SDK: a turn cancelled by the close answers nobody.
  const send = (message: object): Promise<void> =>
    transport.closedWith ? Promise.reject(transport.closedWith) : transport.send(message);

  async function answerRequest(id: RequestId, method: string, params: unknown): Promise<void> {
    const controller = new AbortController();
    incoming.set(id, controller);
    try {
      if (!initialized && method !== INITIALIZE) {
        throw new JsonRpcError(INVALID_REQUEST, `Invalid request: ACP connection must be initialized before '${method}'`);
      }
      const handler = handlers.requests.get(method);
      if (!handler) throw new JsonRpcError(METHOD_NOT_FOUND, `"Method not found": ${method}`, { method });
      const result: unknown = await handler({ params: params ?? {}, signal: controller.signal });
      // Recorded before the answer goes out, so the client's next request is never turned away.
      if (method === INITIALIZE) initialized = true;
      await send({ jsonrpc: '2.0', id, result: result ?? null });
    } catch (error) {
      if (!transport.closedWith) await send({ jsonrpc: '2.0', id, error: errorAnswer(error, controller.signal) }).catch(() => {});
    } finally {
      if (incoming.get(id) === controller) incoming.delete(id);
    }
  }

  function receiveNotification(method: string, params: unknown): void {
    if (method === CANCEL_REQUEST) {
      const requestId = isObject(params) ? params.requestId : undefined;
      const controller = isRequestId(requestId) ? incoming.get(requestId) : undefined;
      if (controller && !controller.signal.aborted) controller.abort(new JsonRpcError(REQUEST_CANCELLED, 'Request cancelled', { requestId }));
    }
    try {
      handlers.notifications.get(method)?.(params ?? {});
    } catch (error) {
      // Nobody to answer a notification: the agent's log (stderr) says what went wrong, as the SDK's does.
      console.error(`scripted-agent: could not handle the notification ${method}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  function receiveAnswer(message: Record<string, unknown>): void {
    const id = message.id;
    const waiter = isRequestId(id) ? pending.get(id) : undefined;
    if (!waiter) return;
    pending.delete(id as RequestId);
    waiter.cleanup();
    if (waiter.abandoned) return;
    const error = message.error;
    const wellFormed = message.jsonrpc === '2.0' && ('result' in message) !== ('error' in message);
    if (wellFormed && 'result' in message) waiter.resolve(message.result);
    else if (wellFormed && isObject(error) && Number.isInteger(error.code) && typeof error.message === 'string') {
      waiter.reject(new JsonRpcError(error.code as number, error.message, error.data));
    } else waiter.reject(new JsonRpcError(INVALID_REQUEST, 'Invalid request', message));
  }

  function receive(message: unknown): void {
    const invalid = invalidMessageAnswer(message);
    if (invalid) {
      void send(invalid).catch(() => {});
      return;
    }
    const record = message as Record<string, unknown>;
    if (typeof record.method !== 'string') receiveAnswer(record);
    else if ('id' in record) void answerRequest(record.id as RequestId, record.method, record.params);
    else receiveNotification(record.method, record.params);
  }

  const closed = new Promise<void>((resolve) => {
    transport.onClose((error) => {
      for (const waiter of pending.values()) {
        waiter.cleanup();
        waiter.reject(error);
      }
      pending.clear();
      for (const controller of incoming.values()) controller.abort(error);
      incoming.clear();
      resolve();
    });
  });

  transport.start(receive);

  const client: AcpClient = {
    request<M extends keyof ClientRequests>(method: M, params: ClientRequests[M][0], options: RequestOptions = {}): Promise<ClientRequests[M][1]> {
      if (transport.closedWith) return Promise.reject(transport.closedWith);
      const id = nextId++;
      const signal = options.cancellationSignal;
      let cancel = (): void => {};
      const answer = new Promise<ClientRequests[M][1]>((resolve, reject) => {
        const waiter: Pending = {
          resolve: (value) => resolve((value ?? (EMPTY_ANSWERS.has(method) ? {} : value)) as ClientRequests[M][1]),
          reject,
          abandoned: false,
          cleanup: () => signal?.removeEventListener('abort', cancel),
        };
        let cancelSent = false;
        cancel = () => {
          if (cancelSent) return;
          cancelSent = true;
          waiter.cleanup();
          void send({ jsonrpc: '2.0', method: CANCEL_REQUEST, params: { requestId: id } }).catch(() => {});
          if (options.stopWaitingOnCancel) {
            // Stays pending so the client's late answer is matched and dropped quietly.
            waiter.abandoned = true;
            reject(new JsonRpcError(REQUEST_CANCELLED, 'Request cancelled', signal?.reason));
          }
        };
        signal?.addEventListener('abort', cancel, { once: true });
        pending.set(id, waiter);
      });
      // Marked handled here as the SDK does: a caller that gave up on an abandoned call must not crash the process.
      answer.catch(() => {});
      void send({ jsonrpc: '2.0', id, method, params }).catch(() => {});
      if (signal?.aborted) cancel();
      return answer;
    },
    notify: (method, params) => send({ jsonrpc: '2.0', method, params }),
  };

  return { client, closed };
}
