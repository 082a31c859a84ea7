// The last part of a long text built from many pieces, in bounded memory: what a turn keeps of what an agent said.

export interface TextTail {
  append(piece: string): void;
  /** The last `limit` characters appended so far. */
  text(): string;
}

export function createTextTail(limit: number): TextTail {
  let pieces: string[] = [];
  let length = 0;
  return {
    append(piece) {
      pieces.push(piece);
      length += piece.length;
      // Compact only when twice the limit is held, so appending stays cheap per piece.
      if (length > 2 * limit) {
        const kept = pieces.join('').slice(-limit);
        pieces = [kept];
        length = kept.length;
      }
    },
    text() {
      const whole = pieces.join('');
      return whole.length > limit ? whole.slice(-limit) : whole;
    },
  };
}
