// A details/summary row whose body renders only while open; the stream remembers it was opened, so it
// stays open when scrolled out of and back into view.
import { useState, type ReactNode } from 'react';
import type { TaskStream } from '../../state/task-stream';

export function Expandable({ stream, itemKey, summary, className, children }: {
  stream: TaskStream; itemKey: string; summary: ReactNode; className?: string; children: ReactNode;
}) {
  const [open, setOpen] = useState(() => stream.expanded.has(itemKey));
  return (
    <details
      className={className}
      open={open}
      onToggle={(event) => {
        const isOpen = event.currentTarget.open;
        if (isOpen) stream.expanded.add(itemKey);
        else stream.expanded.delete(itemKey);
        setOpen(isOpen);
      }}
    >
      <summary>{summary}</summary>
      {open && <div className="expand-body">{children}</div>}
    </details>
  );
}
