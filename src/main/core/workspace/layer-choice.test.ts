import { describe, expect, it } from 'vitest';
import { indexEntryCount, LAYER_MIN_FILES, wantsLayer } from './layer-choice';

describe('whether a worktree is a layer', () => {
  const facts = { mode: 'auto' as const, trackedFiles: 10, copies: 0, prepares: false };

  it('is a checkout for a small repository with nothing to copy or prepare', () => {
    expect(wantsLayer(facts)).toBe(false);
    expect(wantsLayer({ ...facts, trackedFiles: undefined })).toBe(false);
  });

  it('is a layer from the size on where a checkout costs more, or when each task would copy or prepare again', () => {
    expect(wantsLayer({ ...facts, trackedFiles: LAYER_MIN_FILES })).toBe(true);
    expect(wantsLayer({ ...facts, copies: 1 })).toBe(true);
    expect(wantsLayer({ ...facts, prepares: true })).toBe(true);
  });

  it('follows the setting over the facts', () => {
    expect(wantsLayer({ ...facts, mode: 'always' })).toBe(true);
    expect(wantsLayer({ ...facts, mode: 'never', copies: 3, trackedFiles: 1e6 })).toBe(false);
  });
});

describe("an index file's header", () => {
  it('gives the number of entries, and nothing for what is no index', () => {
    const header = Buffer.alloc(12);
    header.write('DIRC', 0, 'latin1');
    header.writeUInt32BE(2, 4);
    header.writeUInt32BE(51234, 8);
    expect(indexEntryCount(header)).toBe(51234);
    expect(indexEntryCount(Buffer.from('not an index'))).toBeUndefined();
    expect(indexEntryCount(Buffer.alloc(4))).toBeUndefined();
  });
});
