// Rows of a file's diff, from its old and new texts (jsdiff): context folded around the changes, and
// the same rows paired for a side-by-side view.
import { diffLines } from 'diff';

export interface DiffLine {
  kind: 'context' | 'add' | 'del';
  text: string;
  /** 1-based line numbers; 0-based indexes into each side's lines (for highlighted HTML). */
  oldNo?: number;
  newNo?: number;
}
/** Unchanged lines folded away: `from` (inclusive) to `to` (exclusive) index the file's diff lines. */
export interface DiffGap { kind: 'gap'; hidden: number; from: number; to: number }
export type DiffRow = DiffLine | DiffGap;
export type SplitRow = { kind: 'pair'; left?: DiffLine; right?: DiffLine } | DiffGap;

export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Every line of the diff, in order; falls back to "all removed, all added" when the diff would take too long. */
export function diffAllLines(oldText: string, newText: string): DiffLine[] {
  const changes = diffLines(oldText, newText, { timeout: 1500 }) ??
    [{ value: oldText, removed: true, added: false, count: 0 }, { value: newText, added: true, removed: false, count: 0 }];
  const lines: DiffLine[] = [];
  let oldNo = 1;
  let newNo = 1;
  for (const change of changes) {
    for (const text of splitLines(change.value)) {
      if (change.added) lines.push({ kind: 'add', text, newNo: newNo++ });
      else if (change.removed) lines.push({ kind: 'del', text, oldNo: oldNo++ });
      else lines.push({ kind: 'context', text, oldNo: oldNo++, newNo: newNo++ });
    }
  }
  return lines;
}

/**
 * The lines with long unchanged stretches folded into gaps, keeping `context` lines around each change and every line
 * whose index is in `revealed` (what the reviewer expanded).
 */
export function buildDiffRows(oldText: string, newText: string, context = 3, revealed: ReadonlySet<number> = new Set()): DiffRow[] {
  return foldLines(diffAllLines(oldText, newText), context, revealed);
}

export function foldLines(lines: readonly DiffLine[], context = 3, revealed: ReadonlySet<number> = new Set()): DiffRow[] {
  const keep = lines.map((_, index) => revealed.has(index));
  lines.forEach((line, index) => {
    if (line.kind === 'context') return;
    for (let i = Math.max(0, index - context); i <= Math.min(lines.length - 1, index + context); i++) keep[i] = true;
  });
  const rows: DiffRow[] = [];
  let hidden = 0;
  lines.forEach((line, index) => {
    if (keep[index]) {
      if (hidden > 0) rows.push({ kind: 'gap', hidden, from: index - hidden, to: index });
      hidden = 0;
      rows.push(line);
    } else {
      hidden++;
    }
  });
  if (hidden > 0) rows.push({ kind: 'gap', hidden, from: lines.length - hidden, to: lines.length });
  return rows;
}

/** How many lines one "show more" reveals on each side of a gap. */
export const EXPAND_STEP = 10;

/**
 * The line indexes a "show more" on `gap` reveals: the `step` lines next to each neighbouring change, or all of it.
 * `total` is how many lines the file's diff has: a gap at the file's start or end grows toward its one change only.
 */
export function expandGap(gap: DiffGap, total: number, options: { step?: number; all?: boolean } = {}): number[] {
  const step = options.step ?? EXPAND_STEP;
  const sides = (gap.from > 0 ? 1 : 0) + (gap.to < total ? 1 : 0);
  const indexes: number[] = [];
  if (options.all || gap.hidden <= step * Math.max(1, sides)) {
    for (let i = gap.from; i < gap.to; i++) indexes.push(i);
    return indexes;
  }
  if (gap.from > 0) for (let i = gap.from; i < gap.from + step; i++) indexes.push(i);
  if (gap.to < total) for (let i = gap.to - step; i < gap.to; i++) indexes.push(i);
  return indexes;
}

/** Side by side: context on both sides, a run of removals beside the additions that follow it. */
export function pairRows(rows: readonly DiffRow[]): SplitRow[] {
  const paired: SplitRow[] = [];
  let index = 0;
  while (index < rows.length) {
    const row = rows[index] as DiffRow;
    if (row.kind === 'gap') {
      paired.push(row);
      index++;
    } else if (row.kind === 'context') {
      paired.push({ kind: 'pair', left: row, right: row });
      index++;
    } else {
      const removed: DiffLine[] = [];
      const added: DiffLine[] = [];
      while (rows[index]?.kind === 'del') removed.push(rows[index++] as DiffLine);
      while (rows[index]?.kind === 'add') added.push(rows[index++] as DiffLine);
      for (let i = 0; i < Math.max(removed.length, added.length); i++) paired.push({ kind: 'pair', left: removed[i], right: added[i] });
    }
  }
  return paired;
}
