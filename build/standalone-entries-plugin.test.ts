// Which of the build's ES-module chunks go once an entry is written as CommonJS: only those no other entry needs.
import type { OutputBundle } from 'rolldown';
import { describe, expect, it } from 'vitest';
import { chunksOnlyOf } from './standalone-entries-plugin';

/** A bundle of chunks named by file, each with what it imports at once and lazily. */
function bundleOf(chunks: Record<string, { entry?: boolean; imports?: string[]; lazy?: string[] }>): OutputBundle {
  return Object.fromEntries(Object.entries(chunks).map(([fileName, chunk]) => [fileName, {
    type: 'chunk', fileName, isEntry: chunk.entry ?? false, imports: chunk.imports ?? [], dynamicImports: chunk.lazy ?? [],
  }])) as unknown as OutputBundle;
}

describe('chunksOnlyOf', () => {
  it('names the chunks only the entry reaches, lazily or not, and keeps those another entry shares', () => {
    const bundle = bundleOf({
      'agent.js': { entry: true, imports: ['chunks/peer.js'], lazy: ['chunks/client.js'] },
      'chunks/client.js': { imports: ['chunks/types.js'] },
      'chunks/types.js': {},
      'chunks/peer.js': {},
      'serve.js': { entry: true, lazy: ['chunks/host.js'] },
      'chunks/host.js': { imports: ['chunks/peer.js', 'chunks/types.js'] },
    });
    expect(chunksOnlyOf({ fileName: 'agent.js' }, bundle)).toEqual(['chunks/client.js']);
  });
});
