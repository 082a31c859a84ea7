// A child process's pipes as the message channel's byte source and line sink, read and written as Node streams.
// Node's web-stream adapters (Readable.toWeb, Writable.toWeb) put each chunk through a web stream's queue and
// promises on both sides of every message of an agent's conversation.
import type { Readable, Writable } from 'node:stream';
import type { ByteSource, LineSink } from '../../../shared/ndjson-channel';

/** Reads `stream` chunk by chunk (whatever is buffered at once); done at its end, or when it is destroyed. */
export function pipeSource(stream: Readable): ByteSource {
  let ended = false;
  let failed: Error | undefined;
  let wake: (() => void) | undefined;
  const woken = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  stream.on('readable', woken);
  stream.on('end', () => { ended = true; woken(); });
  stream.on('close', () => { ended = true; woken(); });
  stream.on('error', (error) => { failed = error; woken(); });
  return {
    async read() {
      for (;;) {
        const chunk: unknown = stream.read();
        if (chunk !== null) return { done: false, value: typeof chunk === 'string' ? Buffer.from(chunk) : chunk as Uint8Array };
        // A stream destroyed with an error says so at once; its 'error' event comes a tick later.
        const error = failed ?? stream.errored;
        if (error) throw error;
        if (ended || stream.destroyed) return { done: true, value: undefined };
        await new Promise<void>((resolve) => { wake = resolve; });
      }
    },
    async cancel() {
      stream.destroy();
    },
  };
}

/** Writes each line to `stream`; a write settles when the stream took it, or fails with the stream's error. */
export function pipeSink(stream: Writable): LineSink {
  return {
    write: (line) => new Promise<void>((resolve, reject) => {
      if (stream.destroyed || stream.writableEnded) {
        reject(new Error('the pipe is closed'));
        return;
      }
      stream.write(line, (error) => (error ? reject(error) : resolve()));
    }),
  };
}
