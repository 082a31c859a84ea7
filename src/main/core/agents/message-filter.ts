// Reads a stream of messages through a synchronous filter: one reader on the source, no TransformStream. Each
// pipeThrough stage costs a pipe loop with a read and a write promise per message, and an agent's conversation
// passed two before the SDK read it.

/** The messages of `source` for which `keep` says true, in order; its end, error and cancel pass through. */
export function filterMessages<T>(source: ReadableStream<T>, keep: (message: T) => boolean): ReadableStream<T> {
  const reader = source.getReader();
  return new ReadableStream<T>({
    async pull(controller) {
      // A pull must enqueue something or end the stream, or the stream never asks again: read past what is left out.
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        if (keep(value)) {
          controller.enqueue(value);
          return;
        }
      }
    },
    cancel: (reason) => reader.cancel(reason),
  }, { highWaterMark: 0 });
}
