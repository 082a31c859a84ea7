// A terminal's output in xterm.js, mounted only while its row is open and on screen. It replays the
// buffer, then writes new output straight from the stream, never through React state.
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef } from 'react';
import type { TerminalBuffer } from '../../state/task-stream';

const THEME = { background: '#1d2126', foreground: '#d8dde3', cursor: '#1d2126', selectionBackground: '#3d4a5a' };

export function TerminalView({ buffer, label }: { buffer: TerminalBuffer; label: string }) {
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const text = buffer.chunks.join('');
    // As tall as its output so far (3 to 16 rows); longer output scrolls inside.
    const rows = Math.min(16, Math.max(3, (text.match(/\n/g)?.length ?? 0) + 2));
    const terminal = new Terminal({
      convertEol: true, disableStdin: true, cursorBlink: false, rows, fontSize: 12, scrollback: 5000, theme: THEME,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
    });
    terminal.open(element);
    terminal.write(text);
    const write = (data: string) => terminal.write(data);
    buffer.listeners.add(write);
    return () => {
      buffer.listeners.delete(write);
      terminal.dispose();
    };
  }, [buffer]);

  return <div ref={ref} className="terminal" aria-label={label} role="group" />;
}
