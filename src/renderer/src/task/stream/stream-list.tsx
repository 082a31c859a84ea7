// A task's live stream, virtualized (tens of thousands of rows scroll smoothly). It follows new rows
// while the person is at the bottom and stays put once they scroll up to read.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { desk, useDesk } from '../../state/store';
import { usageText } from '../../state/token-usage';
import { StreamRow } from './stream-row';
import { WorktreeContext } from './worktree-path';

const NEAR_BOTTOM_PX = 48;

export function StreamList({ taskId }: { taskId: string }) {
  const { version, loading, error } = useDesk(useShallow((state) => ({
    version: state.streamVersion[taskId] ?? 0, loading: state.streamLoading[taskId] ?? true, error: state.streamError[taskId],
  })));
  const worktree = useDesk((state) => state.details[taskId]?.worktreePath);
  const stream = desk().streamOf(taskId);
  const items = stream?.items ?? [];
  const scrollRef = useRef<HTMLDivElement>(null);
  // Following stops only when the person scrolls (wheel, keys, touch, scrollbar), never because rows grew.
  const following = useRef(true);
  const personScrolled = useRef(false);
  const [behind, setBehind] = useState(false);
  const stick = () => {
    const element = scrollRef.current;
    if (following.current && element) element.scrollTop = element.scrollHeight;
  };
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 56,
    getItemKey: (index) => items[index]?.key ?? index,
    overscan: 8,
    useFlushSync: false,
    onChange: stick,
  });

  useLayoutEffect(stick, [version, items.length]);

  const follow = () => {
    following.current = true;
    setBehind(false);
    stick();
  };
  const intent = () => {
    personScrolled.current = true;
  };

  const rows = stream && virtualizer.getVirtualItems().map((row) => {
    const item = items[row.index];
    return item && (
      <div key={row.key} data-index={row.index} ref={virtualizer.measureElement} className="stream-item" style={{ transform: `translateY(${row.start}px)` }}>
        <StreamRow item={item} stream={stream} />
      </div>
    );
  });

  return (
    <WorktreeContext value={worktree}>
      <div className="stream-wrap">
        {error && <p className="stream-note">The history could not be loaded: {error}</p>}
        {loading && <p className="stream-note">Loading the history…</p>}
        {!loading && !error && items.length === 0 && <p className="stream-note">Nothing has happened yet.</p>}
        {stream && (stream.usage.tokens || stream.usage.context) && (
          <p className="stream-usage" role="note" aria-label="Tokens of this task">This task: {usageText(stream.usage)}</p>
        )}
        <div
          ref={scrollRef}
          className="stream"
          role="log"
          aria-label="Activity"
          aria-busy={loading}
          tabIndex={0}
          onWheel={intent}
          onTouchStart={intent}
          onPointerDown={intent}
          onKeyDown={intent}
          onScroll={(event) => {
            if (!personScrolled.current) return;
            const element = event.currentTarget;
            following.current = element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_BOTTOM_PX;
            setBehind(!following.current);
          }}
        >
          <div className="stream-inner" style={{ height: virtualizer.getTotalSize() }}>{rows}</div>
        </div>
        {behind && <button type="button" className="jump-latest small" onClick={follow}>Jump to latest</button>}
      </div>
    </WorktreeContext>
  );
}
