// One board column: a region with a heading, its cards virtualized, and a drop zone that moves a card
// only as far as its status allows (Review → Done approves, → Stopped cancels after a confirm).
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState, type DragEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { moveIntent } from '../state/move-rules';
import { columnTaskIds, type ColumnId } from '../state/selectors';
import { desk, useDesk } from '../state/store';
import { carriesTask, draggedTask } from './drag';
import { ClearDone } from './clear-done';
import { TaskCard } from './task-card';

export function dropOnColumn(taskId: string, column: ColumnId): void {
  const task = desk().tasks[taskId];
  if (!task) return;
  const intent = moveIntent(task, column);
  if (intent.action === 'approve') void desk().approveTask(taskId);
  else if (intent.action === 'cancel') desk().openDialog({ kind: 'confirm-cancel', taskId });
  else if (intent.action === 'refuse') desk().showStatus(intent.reason);
}

export function Column({ id, title, collapsible = false }: { id: ColumnId; title: string; collapsible?: boolean }) {
  const ids = useDesk(useShallow((state) => columnTaskIds(state, id, state.filters, state.prompts)));
  // A status filter that only Stopped can match opens it, so the filter never shows an empty board.
  const collapsed = useDesk((state) => collapsible && !state.showStopped && !state.filters.archived && state.filters.status !== 'error' && state.filters.status !== 'cancelled');
  const [dropping, setDropping] = useState(false);

  const onDragOver = (event: DragEvent) => {
    if (!carriesTask(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    setDropping(true);
  };
  const onDrop = (event: DragEvent) => {
    setDropping(false);
    const taskId = draggedTask(event);
    if (!taskId) return;
    event.preventDefault();
    dropOnColumn(taskId, id);
  };

  return (
    <section
      aria-label={title}
      className={`column column-${id}${collapsed ? ' column-collapsed' : ''}${dropping ? ' column-drop' : ''}`}
      onDragOver={onDragOver}
      onDragLeave={(event) => { if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDropping(false); }}
      onDrop={onDrop}
    >
      <header className="column-header">
        <h2>{title}</h2>
        <span className="column-count">{ids.length}<span className="sr-only"> tasks</span></span>
        {id === 'done' && <ClearDone />}
        {collapsible && (
          <button type="button" className="quiet small" aria-expanded={!collapsed} onClick={() => desk().toggleStopped()}>
            {collapsed ? 'Show stopped' : 'Hide stopped'}
          </button>
        )}
      </header>
      {!collapsed && <CardList ids={ids} />}
      {!collapsed && (id === 'done' || id === 'stopped') && <MoreFinished />}
    </section>
  );
}

/** Finished tasks arrive a page at a time: this asks for the next, older page. */
function MoreFinished() {
  const more = useDesk((state) => state.finishedNext !== undefined);
  if (!more) return null;
  return (
    <button type="button" className="quiet small" onClick={() => void desk().loadMoreFinished()}>
      Load older finished tasks
    </button>
  );
}

function CardList({ ids }: { ids: string[] }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: ids.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 118,
    getItemKey: (index) => ids[index] ?? index,
    overscan: 6,
    gap: 8,
    useFlushSync: false,
  });

  if (ids.length === 0) return <p className="column-empty">Nothing here.</p>;
  return (
    <div ref={scrollRef} className="column-scroll">
      <div className="column-inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div
            key={item.key}
            data-index={item.index}
            ref={virtualizer.measureElement}
            className="column-item"
            style={{ transform: `translateY(${item.start}px)` }}
          >
            <TaskCard id={ids[item.index] as string} />
          </div>
        ))}
      </div>
    </div>
  );
}
