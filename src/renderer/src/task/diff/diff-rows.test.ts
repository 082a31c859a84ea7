import { describe, expect, it } from 'vitest';
import { buildDiffRows, expandGap, pairRows, type DiffGap } from './diff-rows';

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('buildDiffRows', () => {
  it('numbers added lines of a new file', () => {
    expect(buildDiffRows('', 'a\nb\n')).toEqual([{ kind: 'add', text: 'a', newNo: 1 }, { kind: 'add', text: 'b', newNo: 2 }]);
  });

  it('folds unchanged lines far from a change into a gap', () => {
    const rows = buildDiffRows(numbered(20), numbered(20).replace('line 10\n', 'line ten\n'));
    expect(rows[0]).toEqual({ kind: 'gap', hidden: 6, from: 0, to: 6 });
    expect(rows.filter((row) => row.kind === 'del')).toEqual([{ kind: 'del', text: 'line 10', oldNo: 10 }]);
    expect(rows.at(-1)).toEqual({ kind: 'gap', hidden: 7, from: 14, to: 21 });
  });
});

describe('expanding a gap', () => {
  const before = numbered(60);
  const after = before.replace('line 5\n', 'line five\n').replace('line 55\n', 'line fifty-five\n');
  const total = 62; // 60 lines, two of them both removed and added
  const gaps = (rows: ReturnType<typeof buildDiffRows>) => rows.filter((row): row is DiffGap => row.kind === 'gap');

  it('shows ten more lines next to each change around a long gap, then the rest', () => {
    const middle = gaps(buildDiffRows(before, after))[1] as DiffGap;
    expect(middle).toMatchObject({ hidden: 43, from: 9, to: 52 });
    const once = buildDiffRows(before, after, 3, new Set(expandGap(middle, total)));
    expect(gaps(once).map((gap) => gap.hidden)).toEqual([1, 23, 2]);
    const rest = expandGap(gaps(once)[1] as DiffGap, total, { all: true });
    expect(gaps(buildDiffRows(before, after, 3, new Set([...expandGap(middle, total), ...rest]))).map((gap) => gap.hidden)).toEqual([1, 2]);
  });

  it('grows a gap at the end of the file toward the change only', () => {
    const rows = buildDiffRows(numbered(40), numbered(40).replace('line 2\n', 'line two\n'));
    const last = rows.at(-1) as DiffGap;
    expect(last).toMatchObject({ from: 6, to: 41 });
    expect(expandGap(last, 41)).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
  });
});

describe('pairRows', () => {
  it('puts a removed line beside the line that replaced it', () => {
    const paired = pairRows(buildDiffRows('a\nb\n', 'a\nB\n'));
    expect(paired[1]).toEqual({ kind: 'pair', left: { kind: 'del', text: 'b', oldNo: 2 }, right: { kind: 'add', text: 'B', newNo: 2 } });
  });
});
