// Test support: everything a web ReadableStream yields, in order, once it ends (rejects with the stream's error).
export async function readAll(stream: ReadableStream<unknown>): Promise<unknown[]> {
  const seen: unknown[] = [];
  for (const reader = stream.getReader(); ;) {
    const { value, done } = await reader.read();
    if (done) return seen;
    seen.push(value);
  }
}
