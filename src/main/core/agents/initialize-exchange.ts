// The one exchange before a dialect owns the channel: `initialize` sent, its answer read. Whatever else the agent
// wrote first is kept and read again by the dialect's session, so nothing an early agent says is lost.
import { isObject } from '../../../shared/is-object';
import { INTERNAL_ERROR, JsonRpcError, PeerClosedError } from '../../../shared/json-rpc-peer';
import type { MessageChannel } from '../../../shared/ndjson-channel';

/** The id of the one request sent before a dialect is chosen; the chosen side numbers its own requests afterwards. */
export const HANDSHAKE_ID = 0;

/**
 * Whether `message` answers the desk's `initialize`: the response to its id, or a response the desk never asked for
 * that carries a protocol version. The Kandev dialect's published example agent writes its answer (with id 1)
 * before it is asked, and never answers the request itself. Pure.
 */
export function isInitializeAnswer(message: unknown): message is Record<string, unknown> {
  if (!isObject(message) || 'method' in message || !('id' in message)) return false;
  if (message.id === HANDSHAKE_ID) return true;
  return isObject(message.result) && message.result.protocolVersion !== undefined;
}

/**
 * Sends `initialize` and reads until its answer: the answer's raw `protocolVersion` (integer for ACP, "1.0" for
 * Kandev) decides which side reads the rest. Returns the answer and the channel to go on with, on which the messages
 * the agent wrote before its answer come first.
 */
export async function initializeAndKeep(channel: MessageChannel, params: object): Promise<{ answer: unknown; channel: MessageChannel }> {
  const writer = channel.writable.getWriter();
  try {
    await writer.write({ jsonrpc: '2.0', id: HANDSHAKE_ID, method: 'initialize', params });
  } finally {
    writer.releaseLock();
  }
  const early: unknown[] = [];
  const reader = channel.readable.getReader();
  let answer: Record<string, unknown>;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw channel.closedWith ?? new PeerClosedError('The agent closed its output before answering initialize');
      if (isInitializeAnswer(value)) {
        answer = value;
        break;
      }
      early.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  if (isObject(answer.error)) {
    const { code, message } = answer.error;
    throw new JsonRpcError(typeof code === 'number' ? code : INTERNAL_ERROR, typeof message === 'string' ? message : 'initialize failed');
  }
  return { answer: answer.result, channel: early.length === 0 ? channel : withEarlyMessages(channel, early) };
}

/** `initialize`'s answer alone, for callers that only ask who the agent is (logins) and then let it go. */
export async function exchangeInitialize(channel: MessageChannel, params: object): Promise<unknown> {
  return (await initializeAndKeep(channel, params)).answer;
}

/** The same channel, reading `early` first and then the rest of the agent's output. */
function withEarlyMessages(channel: MessageChannel, early: readonly unknown[]): MessageChannel {
  const source = channel.readable.getReader();
  const readable = new ReadableStream<unknown>({
    start(controller) {
      for (const message of early) controller.enqueue(message);
    },
    async pull(controller) {
      const { value, done } = await source.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => source.cancel(reason),
  });
  return {
    readable,
    writable: channel.writable,
    close: (error) => channel.close(error),
    onClose: (listener) => channel.onClose(listener),
    get closedWith() { return channel.closedWith; },
  };
}
