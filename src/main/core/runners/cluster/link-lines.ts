// Splits the bytes of a runner connection into lines, each bounded: a line longer than the limit is dropped whole
// (and reported), so a helper that never sends a newline cannot make the desk hold its output in memory.

/** Feeds chunks in; calls `onLine` with each complete line (UTF-8, without its `\n`). */
export type LineSplitter = (chunk: Buffer) => void;

export function createLineSplitter(maxBytes: number, onLine: (line: string) => void, onOverlong: () => void): LineSplitter {
  let parts: Buffer[] = [];
  let size = 0;
  // Set after an overlong start: everything up to the next newline belongs to the dropped line.
  let discarding = false;

  return (chunk) => {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, newline);
      if (!discarding) {
        if (size + piece.length > maxBytes) onOverlong();
        else onLine(Buffer.concat([...parts, piece]).toString('utf8'));
      }
      parts = [];
      size = 0;
      discarding = false;
      start = newline + 1;
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0 || discarding) return;
    if (size + rest.length > maxBytes) {
      parts = [];
      size = 0;
      discarding = true;
      onOverlong();
    } else {
      parts.push(rest);
      size += rest.length;
    }
  };
}
