// The name a download is saved under: plain for simple names, exact (RFC 5987) for any other.
import { describe, expect, it } from 'vitest';
import { contentDisposition } from './file-download';

describe('contentDisposition', () => {
  it('names a plain file as it is', () => {
    expect(contentDisposition('notes.txt')).toBe('attachment; filename="notes.txt"; filename*=UTF-8\'\'notes.txt');
  });

  it('keeps quotes and non-ASCII out of the plain name and exact in the encoded one', () => {
    const header = contentDisposition('süß "x"\\(1).txt');
    expect(header).toContain('filename="s__ _x__(1).txt"');
    expect(header).toContain("filename*=UTF-8''s%C3%BC%C3%9F%20%22x%22%5C%281%29.txt");
  });
});
