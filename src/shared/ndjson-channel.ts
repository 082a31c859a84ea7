// Newline-delimited JSON over a pair of web byte streams, as a channel of parsed messages that either side may close.
// It has the shape of the ACP SDK's `Stream`, so the same channel feeds the SDK or our own JSON-RPC peer.

/** Parsed JSON messages in, JSON values out; `close` ends both at once and tells every listener why. */
export interface MessageChannel {
  readonly readable: ReadableStream<unknown>;
  readonly writable: WritableStream<unknown>;
  /**
   * Ends the channel's reading side with `error`: listeners run synchronously, then the readable ends. Later calls
   * do nothing. Writes still go out while the other side reads them.
   */
  close(error: Error): void;
  /** Runs `listener` when the channel closes (at once if it already has). */
  onClose(listener: (error: Error) => void): void;
  readonly closedWith: Error | undefined;
}

export interface NdjsonChannelOptions {
  /**
   * Lines that are not JSON (agents sometimes print to stdout by mistake). Without a handler, such a line is
   * answered with a JSON-RPC parse error (-32700, id null), as an endpoint serving requests should.
   */
  onNoise?: (line: string) => void;
  /** Why the channel closed when the other side ended its output. */
  endedError?: () => Error;
}

export const PARSE_ERROR = -32700;

/** Where lines go: one whole line (its newline included) per write, settled once it is handed on. */
export interface LineSink {
  write(line: string): Promise<void>;
}

/** Where bytes come from, read as a web stream's reader reads them (`cancel` ends the source). */
export interface ByteSource {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  cancel(reason?: unknown): Promise<void>;
}

export function ndjsonChannel(output: WritableStream<Uint8Array>, input: ReadableStream<Uint8Array>, options: NdjsonChannelOptions = {}): MessageChannel {
  const encoder = new TextEncoder();
  const writer = output.getWriter();
  return ndjsonChannelOver({ write: (line) => writer.write(encoder.encode(line)) }, input.getReader(), options);
}

/** The same channel over a line sink and a byte source of the caller's (e.g. a child process's pipes, without web streams). */
export function ndjsonChannelOver(writer: LineSink, reader: ByteSource, options: NdjsonChannelOptions = {}): MessageChannel {
  const decoder = new TextDecoder();
  const listeners: ((error: Error) => void)[] = [];
  let closedWith: Error | undefined;
  let controller: ReadableStreamDefaultController<unknown> | undefined;
  let buffered = '';
  let received = 0;

  // Writes are chained so lines never interleave; a failed write (the other side went away) closes the channel.
  // Writing goes on after the input ended: an agent finishes the turns it accepted before its client hung up.
  let writing: Promise<void> = Promise.resolve();
  const writeLine = (message: unknown): Promise<void> => {
    const line = `${JSON.stringify(message)}\n`;
    writing = writing.then(async () => {
      try {
        await writer.write(line);
      } catch (error) {
        close(new Error(`Cannot write to the other side: ${error instanceof Error ? error.message : String(error)}`));
      }
    });
    return writing;
  };

  const receive = (line: string): void => {
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      if (options.onNoise) options.onNoise(line);
      else void writeLine({ jsonrpc: '2.0', id: null, error: { code: PARSE_ERROR, message: 'Parse error' } });
      return;
    }
    received += 1;
    controller?.enqueue(message);
  };

  function close(error: Error): void {
    if (closedWith) return;
    closedWith = error;
    for (const listener of listeners.splice(0)) listener(error);
    try {
      controller?.close();
    } catch {
      // Already closed by a cancel from the reading side.
    }
    void reader.cancel(error).catch(() => {});
  }

  const readable = new ReadableStream<unknown>({
    start(c) { controller = c; },
    async pull() {
      // A pull must enqueue something or end the stream, or the stream never asks again: read until a whole
      // message is in (noise and blank lines enqueue nothing).
      try {
        const before = received;
        while (!closedWith && received === before) {
          const { value, done } = await reader.read();
          if (closedWith) return;
          if (done) {
            if (buffered !== '') receive(buffered);
            buffered = '';
            close(options.endedError?.() ?? new Error('The other side closed its output'));
            return;
          }
          buffered += decoder.decode(value, { stream: true });
          let newline = buffered.indexOf('\n');
          while (newline !== -1) {
            receive(buffered.slice(0, newline).replace(/\r$/, ''));
            buffered = buffered.slice(newline + 1);
            newline = buffered.indexOf('\n');
          }
        }
      } catch (error) {
        close(error instanceof Error ? error : new Error(String(error)));
      }
    },
    cancel(reason) { close(reason instanceof Error ? reason : new Error('The channel was cancelled')); },
  });

  const writable = new WritableStream<unknown>({
    write: (message) => writeLine(message),
  });

  return {
    readable,
    writable,
    close,
    onClose(listener) {
      if (closedWith) listener(closedWith);
      else listeners.push(listener);
    },
    get closedWith() { return closedWith; },
  };
}
