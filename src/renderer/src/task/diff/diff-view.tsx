// One file's diff, unified or side by side, virtualized so large files stay smooth, with line comments.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import type { FileDiff } from '../../../../shared/review';
import { desk, useDesk } from '../../state/store';
import { CommentComposer, LineComments } from './comment-box';
import { DiffLineCells, type LineTarget } from './diff-line';
import { diffAllLines, expandGap, foldLines, pairRows, type DiffGap, type DiffLine, type DiffRow, type SplitRow } from './diff-rows';
import { highlightLines } from './highlight';

type Row = DiffRow | SplitRow;

/** Halves are made at most this many characters wide up front; a longer line widens only its own row. */
const MAX_UNWRAPPED = 140;
/** Characters a line takes on screen, tabs counted as the tab-size diff.css gives them. */
const textWidth = (text: string) => text.length + (text.split('\t').length - 1) * 3;

/** `focus`: a line of the new version to scroll to and mark (a review comment's), unfolded if it was folded away. */
export interface DiffFocus { line?: number; at: number }

export function DiffView({ taskId, file, layout, focus }: { taskId: string; file: FileDiff; layout: 'unified' | 'split'; focus?: DiffFocus | undefined }) {
  if (file.binary) return <p className="diff-note">{file.path} is a binary file; its contents are not shown.</p>;
  if (file.tooLarge || (file.oldText === undefined && file.newText === undefined)) {
    return <p className="diff-note">{file.path} is too large to show here (+{file.additions} −{file.deletions}).</p>;
  }
  return <TextDiff taskId={taskId} file={file} layout={layout} focus={focus} />;
}

function TextDiff({ taskId, file, layout, focus }: { taskId: string; file: FileDiff; layout: 'unified' | 'split'; focus?: DiffFocus | undefined }) {
  const oldText = file.oldText ?? '';
  const newText = file.newText ?? '';
  const lines = useMemo(() => diffAllLines(oldText, newText), [oldText, newText]);
  const [revealed, setRevealed] = useState<ReadonlySet<number>>(() => new Set());
  const rows = useMemo(() => foldLines(lines, 3, revealed), [lines, revealed]);
  const reveal = (gap: DiffGap, all = false) => setRevealed((before) => new Set([...before, ...expandGap(gap, lines.length, { all })]));
  const shown: Row[] = useMemo(() => (layout === 'split' ? pairRows(rows) : rows), [rows, layout]);
  // Side by side, lines never wrap (a narrow panel scrolls sideways instead of breaking every line into fragments), and
  // every row's halves are as wide as the file's longest line (up to a limit), so the halves line up from row to row.
  const widest = useMemo(() => Math.min(MAX_UNWRAPPED, lines.reduce((most, line) => Math.max(most, textWidth(line.text)), 0)), [lines]);
  const oldHtml = useMemo(() => highlightLines(oldText, file.oldPath ?? file.path), [oldText, file.oldPath, file.path]);
  const newHtml = useMemo(() => highlightLines(newText, file.path), [newText, file.path]);
  const allComments = useDesk((state) => state.comments[taskId]);
  const [composer, setComposer] = useState<LineTarget>();
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: shown.length, getScrollElement: () => scrollRef.current, estimateSize: () => 22, overscan: 20, useFlushSync: false,
  });

  const html = (line: DiffLine | undefined) =>
    line && (line.kind === 'del' ? oldHtml[(line.oldNo ?? 0) - 1] : newHtml[(line.newNo ?? 0) - 1]);
  const commentsAt = (target: LineTarget | undefined) => (target ? (allComments ?? [])
    .map((comment, index) => ({ comment, index }))
    .filter(({ comment }) => comment.path === file.path && comment.line === target.line && comment.side === target.side) : []);
  const targetsOf = (row: Row): LineTarget[] => {
    if (row.kind === 'gap') return [];
    if (row.kind === 'pair') {
      return [row.left?.kind === 'del' ? { line: row.left.oldNo ?? 0, side: 'old' as const } : undefined,
        row.right ? { line: row.right.newNo ?? 0, side: 'new' as const } : undefined].filter((target) => target !== undefined);
    }
    return [row.kind === 'del' ? { line: row.oldNo ?? 0, side: 'old' } : { line: row.newNo ?? 0, side: 'new' }];
  };
  const focusLine = focus?.line;
  const focusIndex = focusLine === undefined ? -1 : shown.findIndex((row) => targetsOf(row).some((target) => target.side === 'new' && target.line === focusLine));
  useEffect(() => {
    if (focusLine === undefined) return;
    if (focusIndex >= 0) virtualizer.scrollToIndex(focusIndex, { align: 'center' });
    else {
      // Folded away as unchanged: unfold it, and the next render scrolls to it.
      const index = lines.findIndex((line) => line.kind !== 'del' && line.newNo === focusLine);
      if (index >= 0) setRevealed((before) => (before.has(index) ? before : new Set([...before, index])));
    }
    // Scrolled once per click (`focus.at`) and once the line is shown, not on every render.
  }, [focus?.at, focusIndex]);
  const renderRow = (row: Row) => {
    if (row.kind === 'gap') return <GapRow gap={row} total={lines.length} onReveal={reveal} />;
    if (row.kind === 'pair') {
      return (
        <div className="dl-pair">
          <DiffLineCells line={row.left} html={html(row.left)} path={file.path} numbers="old" onComment={row.left?.kind === 'del' ? setComposer : undefined} />
          <DiffLineCells line={row.right} html={html(row.right)} path={file.path} numbers="new" onComment={setComposer} />
        </div>
      );
    }
    return <DiffLineCells line={row} html={html(row)} path={file.path} numbers="both" onComment={setComposer} />;
  };

  return (
    <div ref={scrollRef} className={`diff diff-${layout}`} aria-label={`Changes in ${file.path}`} role="group">
      <div className="diff-inner" style={{ height: virtualizer.getTotalSize(), ...(layout === 'split' && { '--widest': widest }) } as CSSProperties}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = shown[item.index] as Row;
          const targets = targetsOf(row);
          const open = targets.find((target) => target.line === composer?.line && target.side === composer.side);
          return (
            <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className={item.index === focusIndex ? 'diff-row diff-row-focused' : 'diff-row'} aria-current={item.index === focusIndex ? 'location' : undefined} style={{ transform: `translateY(${item.start}px)` }}>
              {renderRow(row)}
              {targets.map((target) => {
                const here = commentsAt(target);
                return here.length > 0 && <LineComments key={`${target.side}${target.line}`} taskId={taskId} comments={here} />;
              })}
              {open && (
                <CommentComposer
                  onClose={() => setComposer(undefined)}
                  onAdd={(text) => {
                    desk().addComment(taskId, { path: file.path, line: open.line, side: open.side, text });
                    setComposer(undefined);
                  }}
                />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

/** Folded unchanged lines, and the buttons that show more of them around the changes. */
function GapRow({ gap, total, onReveal }: { gap: DiffGap; total: number; onReveal(gap: DiffGap, all?: boolean): void }) {
  const lines = `${gap.hidden} unchanged ${gap.hidden === 1 ? 'line' : 'lines'}`;
  const partial = expandGap(gap, total).length < gap.hidden;
  return (
    <div className="dl-gap">
      <span>⋯ {lines}</span>
      {partial && <button type="button" className="quiet small" onClick={() => onReveal(gap)}>Show more lines</button>}
      <button type="button" className="quiet small" onClick={() => onReveal(gap, true)}>{partial ? 'Show all' : `Show ${lines}`}</button>
    </div>
  );
}
