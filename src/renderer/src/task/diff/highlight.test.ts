import { describe, expect, it } from 'vitest';
import { highlightLines, splitHighlighted } from './highlight';

describe('highlightLines', () => {
  it('escapes the text of files it cannot highlight', () => {
    expect(highlightLines('<b>&\nsecond\n', 'notes.unknown')).toEqual(['&lt;b&gt;&amp;', 'second']);
  });

  it('highlights by extension and keeps one string per line', () => {
    const lines = highlightLines('const a = "<x>";\nlet b = 2;\n', 'a.ts');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('hljs-keyword');
    expect(lines[0]).toContain('&lt;x&gt;');
  });

  it('closes and reopens a span that crosses a line end', () => {
    expect(splitHighlighted('<span class="c">/* a\nb */</span>x')).toEqual(['<span class="c">/* a</span>', '<span class="c">b */</span>x']);
  });
});
