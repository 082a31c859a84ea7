// The task view (route #task=<id>): a region with the header, then two tabs — Activity (the live stream
// and the chat) and Changes (the diff review).
import { useId } from 'react';
import { desk, useDesk } from '../state/store';
import type { TaskTab } from '../state/ui-slice';
import { ChatPanel } from './chat/chat-panel';
import { ChangesTab } from './diff/changes-tab';
import { StreamList } from './stream/stream-list';
import { TaskHeader } from './task-header';
import '../styles/task.css';
import '../styles/stream.css';

const TABS: { id: TaskTab; label: string }[] = [{ id: 'activity', label: 'Activity' }, { id: 'changes', label: 'Changes' }];

export function TaskView({ taskId }: { taskId: string }) {
  const known = useDesk((state) => taskId in state.tasks);
  const loaded = useDesk((state) => state.loadState === 'ready');
  const tab = useDesk((state) => state.taskTab);
  const baseId = useId();

  if (!known) {
    return (
      <section className="task-view" aria-label={`Task ${taskId}`}>
        <div className="task-heading">
          <h2>{loaded ? `No task ${taskId} on this desk` : 'Loading…'}</h2>
          <button type="button" className="quiet" onClick={() => desk().openTask(undefined)}>Back to board</button>
        </div>
      </section>
    );
  }

  return (
    <section
      className="task-view"
      aria-label={`Task ${taskId}`}
      onKeyDown={(event) => { if (event.key === 'Escape' && !desk().dialog) desk().openTask(undefined); }}
    >
      <TaskHeader taskId={taskId} />
      <div className="tabs" role="tablist" aria-label="Task view">
        {TABS.map((item) => (
          <button
            key={item.id}
            type="button"
            role="tab"
            id={`${baseId}-${item.id}`}
            aria-selected={tab === item.id}
            aria-controls={tab === item.id ? `${baseId}-${item.id}-panel` : undefined}
            tabIndex={tab === item.id ? 0 : -1}
            onClick={() => desk().setTaskTab(item.id)}
            onKeyDown={(event) => {
              if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
              const next = tab === 'activity' ? 'changes' : 'activity';
              desk().setTaskTab(next);
              document.getElementById(`${baseId}-${next}`)?.focus();
            }}
          >
            {item.label}
          </button>
        ))}
      </div>
      <div className="tab-panel" role="tabpanel" id={`${baseId}-${tab}-panel`} aria-labelledby={`${baseId}-${tab}`}>
        {tab === 'activity' ? (
          <>
            <StreamList taskId={taskId} />
            <ChatPanel taskId={taskId} />
          </>
        ) : (
          <ChangesTab taskId={taskId} />
        )}
      </div>
    </section>
  );
}
