// One side of a diff line: numbers, sign, highlighted code (escaped HTML) and its "Comment on line" button.
import type { DiffLine } from './diff-rows';

export interface LineTarget { line: number; side: 'old' | 'new' }

export function commentTarget(line: DiffLine): LineTarget {
  return line.kind === 'del' ? { line: line.oldNo ?? 0, side: 'old' } : { line: line.newNo ?? 0, side: 'new' };
}

export function commentLabel(target: LineTarget, path: string): string {
  return target.side === 'old' ? `Comment on removed line ${target.line} of ${path}` : `Comment on line ${target.line} of ${path}`;
}

const SIGN = { add: '+', del: '−', context: ' ' } as const;

export function DiffLineCells({ line, html, path, numbers, onComment }: {
  line: DiffLine | undefined; html: string | undefined; path: string; numbers: 'both' | 'old' | 'new'; onComment?(target: LineTarget): void;
}) {
  if (!line) return <div className="dl dl-empty" />;
  const target = commentTarget(line);
  return (
    <div className={`dl dl-${line.kind}`}>
      {numbers !== 'new' && <span className="ln">{line.oldNo ?? ''}</span>}
      {numbers !== 'old' && <span className="ln">{line.newNo ?? ''}</span>}
      <span className="sign" aria-hidden="true">{SIGN[line.kind]}</span>
      {/* html comes from highlightLines: highlight.js output or escaped text, never raw file content. */}
      <code className="code hljs" dangerouslySetInnerHTML={{ __html: html ?? '' }} />
      {onComment && (
        <button type="button" className="comment-btn" aria-label={commentLabel(target, path)} title="Comment on this line" onClick={() => onComment(target)}>
          +
        </button>
      )}
    </div>
  );
}
