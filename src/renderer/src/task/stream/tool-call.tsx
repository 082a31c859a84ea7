// A tool call: kind, title, status and file locations at a glance; input, output and diffs when opened.
import { useContext, useMemo } from 'react';
import type { TaskStream, ToolCallItem } from '../../state/task-stream';
import { buildDiffRows } from '../diff/diff-rows';
import { TerminalView } from '../terminal/terminal-view';
import { Expandable } from './expandable';
import { relativeText, shortPath, WorktreeContext } from './worktree-path';

const STATUS_LABEL = { pending: 'pending', in_progress: 'running', completed: 'done', failed: 'failed' } as const;

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2) ?? '';
}

/** A change as a short diff under its path (relative to the worktree): in a tool call, and in a question about one. */
export function MiniDiff({ path, oldText, newText }: { path: string; oldText: string; newText: string }) {
  const worktree = useContext(WorktreeContext);
  const rows = useMemo(() => buildDiffRows(oldText, newText, 2).slice(0, 400), [oldText, newText]);
  return (
    <figure className="mini-diff">
      <figcaption>{shortPath(path, worktree)}</figcaption>
      <pre>
        {rows.map((row, index) => row.kind === 'gap'
          ? <div key={index} className="dl-gap">⋯ {row.hidden} unchanged {row.hidden === 1 ? 'line' : 'lines'}</div>
          : <div key={index} className={`dl-${row.kind}`}>{row.kind === 'add' ? '+' : row.kind === 'del' ? '−' : ' '} {row.text}</div>)}
      </pre>
    </figure>
  );
}

function ContentBlock({ block, stream }: { block: unknown; stream: TaskStream }) {
  if (!block || typeof block !== 'object') return null;
  const value = block as { type?: string; path?: string; oldText?: string | null; newText?: string; terminalId?: string; content?: { type?: string; text?: string } };
  if (value.type === 'diff' && typeof value.path === 'string') {
    return <MiniDiff path={value.path} oldText={value.oldText ?? ''} newText={value.newText ?? ''} />;
  }
  if (value.type === 'terminal' && value.terminalId) {
    const buffer = stream.terminals.get(value.terminalId);
    return buffer ? <TerminalView buffer={buffer} label="Terminal output" /> : null;
  }
  if (value.type === 'content' && value.content?.type === 'text') return <pre className="tool-text">{value.content.text}</pre>;
  return <pre className="tool-text">{asText(block)}</pre>;
}

export function ToolCallRow({ item, stream }: { item: ToolCallItem; stream: TaskStream }) {
  const worktree = useContext(WorktreeContext);
  const where = item.locations.map((location) => `${shortPath(location.path, worktree)}${location.line ? `:${location.line}` : ''}`).join(', ');
  const summary = (
    <>
      <span className="tool-kind">{item.toolKind}</span>
      <span className="tool-title">{relativeText(item.title, worktree)}</span>
      <span className={`tool-status tool-status-${item.status}`}>{STATUS_LABEL[item.status]}</span>
      {where && <span className="tool-where">{where}</span>}
    </>
  );
  return (
    <Expandable stream={stream} itemKey={item.key} className={`tool tool-${item.status}`} summary={summary}>
      {item.rawInput !== undefined && <><h4>Input</h4><pre className="tool-text">{relativeText(asText(item.rawInput), worktree)}</pre></>}
      {item.content.map((block, index) => <ContentBlock key={index} block={block} stream={stream} />)}
      {item.rawOutput !== undefined && <><h4>Output</h4><pre className="tool-text">{relativeText(asText(item.rawOutput), worktree)}</pre></>}
    </Expandable>
  );
}
