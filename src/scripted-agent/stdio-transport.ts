// The message transport of the agent's ACP connection: ndjson over Node byte streams (the process's stdin/stdout; the
// rules of ndjson-channel.ts without web streams, whose load costs every start ~2 ms of CPU), or over that channel.
import type { Readable, Writable } from 'node:stream';
import { PARSE_ERROR, type MessageChannel } from '../shared/ndjson-channel';

/** Parsed messages in, JSON values out; closes once when the input ends or a write fails. */
export interface MessageTransport {
  /** Delivers each parsed message, in order, from now on. */
  start(onMessage: (message: unknown) => void): void;
  /** Resolves once the line is handed to the output (backpressure); a failed write closes the transport. */
  send(message: unknown): Promise<void>;
  /** Runs `listener` when the transport closes (at once if it already has). */
  onClose(listener: (error: Error) => void): void;
  readonly closedWith: Error | undefined;
}

export function stdioTransport(input: Readable, output: Writable): MessageTransport {
  const listeners: ((error: Error) => void)[] = [];
  let closedWith: Error | undefined;
  let buffered = '';

  const close = (error: Error): void => {
    if (closedWith) return;
    closedWith = error;
    input.pause();
    for (const listener of listeners.splice(0)) listener(error);
  };

  const send = (message: unknown): Promise<void> =>
    new Promise((resolve) => {
      output.write(`${JSON.stringify(message)}\n`, (error) => {
        if (error) close(new Error(`Cannot write to the other side: ${error.message}`));
        resolve();
      });
    });

  const receive = (line: string, onMessage: (message: unknown) => void): void => {
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      void send({ jsonrpc: '2.0', id: null, error: { code: PARSE_ERROR, message: 'Parse error' } });
      return;
    }
    onMessage(message);
  };

  return {
    start(onMessage) {
      input.setEncoding('utf8');
      input.on('data', (chunk: string) => {
        buffered += chunk;
        for (let newline = buffered.indexOf('\n'); newline !== -1 && !closedWith; newline = buffered.indexOf('\n')) {
          const line = buffered.slice(0, newline).replace(/\r$/, '');
          buffered = buffered.slice(newline + 1);
          receive(line, onMessage);
        }
      });
      input.once('end', () => {
        if (buffered !== '' && !closedWith) receive(buffered, onMessage);
        buffered = '';
        close(new Error('The other side closed its output'));
      });
      input.once('error', (error) => close(error));
    },
    send,
    onClose(listener) {
      if (closedWith) listener(closedWith);
      else listeners.push(listener);
    },
    get closedWith() { return closedWith; },
  };
}

/** The same transport over an ndjson channel of web streams (in-memory pipes in tests, the SDK's shape). */
export function channelTransport(channel: MessageChannel): MessageTransport {
  const writer = channel.writable.getWriter();
  return {
    start(onMessage) {
      void (async () => {
        const reader = channel.readable.getReader();
        for (;;) {
          const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
          if (done || channel.closedWith) break;
          onMessage(value);
        }
      })();
    },
    send: (message) => writer.write(message),
    onClose: (listener) => channel.onClose(listener),
    get closedWith() { return channel.closedWith; },
  };
}
