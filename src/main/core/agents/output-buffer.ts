// What a terminal printed, kept as UTF-8 bytes so that a byte limit keeps exactly the tail and never
// splits a character (ACP `outputByteLimit`: truncate from the beginning).

export interface OutputBuffer {
  append(text: string): void;
  /** Everything kept, as text. */
  text(): string;
  /** True once any output was dropped to stay within the limit. */
  readonly truncated: boolean;
  readonly byteLength: number;
}

/** `limitBytes` of null or undefined keeps everything. */
export function createOutputBuffer(limitBytes?: number | null): OutputBuffer {
  const limit = limitBytes ?? Infinity;
  // A list of chunks rather than one growing Buffer: appends stay cheap, and each chunk encodes whole
  // characters, so only the first chunk can ever start inside one after trimming.
  let chunks: Buffer[] = [];
  let byteLength = 0;
  let truncated = false;

  const trim = (): void => {
    while (byteLength > limit) {
      const first = chunks[0] as Buffer;
      const excess = byteLength - limit;
      if (first.length <= excess) {
        chunks.shift();
        byteLength -= first.length;
      } else {
        const start = characterStart(first, excess);
        chunks[0] = first.subarray(start);
        byteLength -= start;
      }
      truncated = true;
    }
  };

  return {
    append(text) {
      if (text === '') return;
      const bytes = Buffer.from(text, 'utf8');
      chunks.push(bytes);
      byteLength += bytes.length;
      trim();
    },
    text() {
      if (chunks.length > 1) chunks = [Buffer.concat(chunks, byteLength)];
      return chunks[0]?.toString('utf8') ?? '';
    },
    get truncated() { return truncated; },
    get byteLength() { return byteLength; },
  };
}

/** The first index at or after `from` that begins a UTF-8 character (continuation bytes are 10xxxxxx). */
export function characterStart(bytes: Uint8Array, from: number): number {
  let index = from;
  while (index < bytes.length && ((bytes[index] as number) & 0xc0) === 0x80) index += 1;
  return index;
}
