// Pure rules of the ACP SDK's JSON-RPC layer that an agent's client can observe: which lines are refused as
// invalid requests, and how an error thrown by a handler is put on the wire. Kept equal to SDK 2.4.0's.
import { isObject } from '../shared/is-object';
import { INTERNAL_ERROR, INVALID_REQUEST, JsonRpcError } from '../shared/json-rpc-peer';

export type RequestId = number | string | null;

export const REQUEST_CANCELLED = -32800;

/** JSON-RPC's id: a string, a finite number, or null. */
export function isRequestId(value: unknown): value is RequestId {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

export interface WireError { code: number; message: string; data?: unknown }

/**
 * The protocol error (id null) the SDK answers a parsed line with before any handler sees it, or undefined when the
 * line is a request, a notification or something shaped like an answer.
 */
export function invalidMessageAnswer(message: unknown): { jsonrpc: '2.0'; id: null; error: WireError } | undefined {
  // ACP does not use JSON-RPC batches.
  if (Array.isArray(message)) return protocolError({ code: INVALID_REQUEST, message: 'Invalid request: JSON-RPC batches are not supported' });
  if (!isObject(message)) return protocolError({ code: INVALID_REQUEST, message: 'Invalid request', data: message });
  const envelope = message.jsonrpc === '2.0';
  const call = envelope && typeof message.method === 'string';
  if (call && !('id' in message)) return undefined;
  if (call && isRequestId(message.id)) return undefined;
  const answerShaped = !('method' in message) && ('id' in message || 'result' in message || 'error' in message);
  // The SDK echoes the refused message in `data`.
  return answerShaped ? undefined : protocolError({ code: INVALID_REQUEST, message: 'Invalid request', data: message });
}

function protocolError(error: WireError): { jsonrpc: '2.0'; id: null; error: WireError } {
  return { jsonrpc: '2.0', id: null, error };
}

/**
 * A handler's error as the SDK answers it: a JsonRpcError as it is; an abort after the request was cancelled as
 * -32800; anything else as -32603 "Internal error" with the error's message in `data.details` (or, when that message
 * is JSON, the parsed value as `data`).
 */
export function errorAnswer(error: unknown, signal: AbortSignal): WireError {
  if (signal.aborted && isAbortError(error)) {
    const reason: unknown = signal.reason;
    if (reason instanceof JsonRpcError && reason.code === REQUEST_CANCELLED) return wireError(reason);
    return { code: REQUEST_CANCELLED, message: 'Request cancelled', data: reason };
  }
  if (error instanceof JsonRpcError) return wireError(error);
  const details = detailsOf(error);
  let data: unknown;
  try {
    data = details ? JSON.parse(details) : {};
  } catch {
    data = { details };
  }
  return { code: INTERNAL_ERROR, message: 'Internal error', data };
}

function wireError(error: JsonRpcError): WireError {
  return { code: error.code, message: error.message, data: error.data };
}

function detailsOf(error: unknown): string | undefined {
  if (error instanceof Error) return error.message;
  return isObject(error) && typeof error.message === 'string' ? error.message : undefined;
}

function isAbortError(error: unknown): boolean {
  return isObject(error) && (error.name === 'AbortError' || error.code === 'ABORT_ERR');
}
