import { describe, expect, it } from 'vitest';
import { buildDiffRows, pairRows } from './diff-rows';

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('buildDiffRows', () => {
  it('numbers added lines of a new file', () => {
    expect(buildDiffRows('', 'a\nb\n')).toEqual([{ kind: 'add', text: 'a', newNo: 1 }, { kind: 'add', text: 'b', newNo: 2 }]);
  });

  it('folds unchanged lines far from a change into a gap', () => {
    const rows = buildDiffRows(numbered(20), numbered(20).replace('line 10\n', 'line ten\n'));
    expect(rows[0]).toEqual({ kind: 'gap', hidden: 6 });
    expect(rows.filter((row) => row.kind === 'del')).toEqual([{ kind: 'del', text: 'line 10', oldNo: 10 }]);
    expect(rows.at(-1)).toEqual({ kind: 'gap', hidden: 7 });
  });
});

describe('pairRows', () => {
  it('puts a removed line beside the line that replaced it', () => {
    const paired = pairRows(buildDiffRows('a\nb\n', 'a\nB\n'));
    expect(paired[1]).toEqual({ kind: 'pair', left: { kind: 'del', text: 'b', oldNo: 2 }, right: { kind: 'add', text: 'B', newNo: 2 } });
  });
});
