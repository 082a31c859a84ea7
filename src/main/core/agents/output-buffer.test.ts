import { describe, expect, it } from 'vitest';
import { characterStart, createOutputBuffer } from './output-buffer';

describe('createOutputBuffer', () => {
  it('keeps everything when there is no limit', () => {
    const buffer = createOutputBuffer(null);
    buffer.append('hello ');
    buffer.append('world');
    expect(buffer.text()).toBe('hello world');
    expect(buffer.truncated).toBe(false);
  });

  it('keeps only the last bytes once the limit is passed and says it truncated', () => {
    const buffer = createOutputBuffer(5);
    buffer.append('abc');
    buffer.append('defg');
    expect(buffer.text()).toBe('cdefg');
    expect(buffer.truncated).toBe(true);
  });

  it('drops whole pieces that fall entirely before the kept tail', () => {
    const buffer = createOutputBuffer(4);
    for (const piece of ['aa', 'bb', 'cc', 'dd']) buffer.append(piece);
    expect(buffer.text()).toBe('ccdd');
    expect(buffer.byteLength).toBe(4);
  });

  it('is not truncated when the output fits the limit exactly', () => {
    const buffer = createOutputBuffer(3);
    buffer.append('abc');
    expect(buffer.text()).toBe('abc');
    expect(buffer.truncated).toBe(false);
  });

  it('never starts with half a character when the cut falls inside one', () => {
    const buffer = createOutputBuffer(4);
    buffer.append('a€€'); // € is three bytes: the last four bytes end one € and hold another
    expect(buffer.text()).toBe('€');
    expect(buffer.byteLength).toBe(3);
    expect(buffer.truncated).toBe(true);
  });

  it('handles four-byte characters at the cut', () => {
    const buffer = createOutputBuffer(6);
    buffer.append('😀😀');
    expect(buffer.text()).toBe('😀');
  });

  it('keeps nothing with a limit of zero', () => {
    const buffer = createOutputBuffer(0);
    buffer.append('anything');
    expect(buffer.text()).toBe('');
    expect(buffer.truncated).toBe(true);
  });

  it('keeps appending correctly after the text was read', () => {
    const buffer = createOutputBuffer(null);
    buffer.append('one ');
    expect(buffer.text()).toBe('one ');
    buffer.append('two');
    expect(buffer.text()).toBe('one two');
  });
});

describe('characterStart', () => {
  it('skips continuation bytes to the next character', () => {
    const bytes = Buffer.from('é!', 'utf8'); // c3 a9 21
    expect(characterStart(bytes, 1)).toBe(2);
    expect(characterStart(bytes, 0)).toBe(0);
  });
});
