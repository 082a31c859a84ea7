// A task's card: title, id, agent, elapsed time, latest activity, dependency badges and whether it needs
// an answer. Memoized by id; it reads only its own task, its activity and its dependencies' statuses.
import { memo, useMemo, useState, type DragEvent, type KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { cardViewModel } from '../state/selectors';
import { desk, useDesk } from '../state/store';
import { DependencyBadge } from './dependency-badge';
import { carriesTask, draggedTask, startTaskDrag } from './drag';
import { Elapsed } from './elapsed';

export const TaskCard = memo(function TaskCard({ id }: { id: string }) {
  const task = useDesk((state) => state.tasks[id]);
  const activity = useDesk((state) => state.activity[id]);
  const selected = useDesk((state) => state.openTaskId === id);
  const dependencyStatuses = useDesk(useShallow((state) =>
    (state.tasks[id]?.dependencies ?? []).map((dependency) => state.tasks[dependency]?.status ?? ('unknown' as const))));
  const card = useMemo(() => task && cardViewModel(task, activity, dependencyStatuses), [task, activity, dependencyStatuses]);
  const [dropping, setDropping] = useState(false);
  if (!card) return null;

  const open = () => desk().openTask(id);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.target === event.currentTarget && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      open();
    }
  };
  const onDragOver = (event: DragEvent) => {
    if (!carriesTask(event)) return;
    event.preventDefault();
    event.stopPropagation();
    event.dataTransfer.dropEffect = 'link';
    setDropping(true);
  };
  const onDrop = (event: DragEvent) => {
    setDropping(false);
    const dragged = draggedTask(event);
    if (!dragged) return;
    event.preventDefault();
    event.stopPropagation();
    if (dragged !== id) void desk().linkTask(dragged, id);
  };

  return (
    <article
      aria-label={`Task ${id}`}
      className={`card card-${card.column}${selected ? ' card-selected' : ''}${dropping ? ' card-drop' : ''}`}
      tabIndex={0}
      draggable
      onClick={open}
      onKeyDown={onKeyDown}
      onDragStart={(event) => startTaskDrag(event, id)}
      onDragOver={onDragOver}
      onDragLeave={() => setDropping(false)}
      onDrop={onDrop}
    >
      <div className="card-meta">
        <span className="card-id">{card.id}</span>
        <span className="card-agent">{card.agent}</span>
        {card.unsandboxed && (
          <span className="card-unsandboxed" title="This task's agent runs without the OS sandbox: it can reach whatever you can. Settings says why.">
            unsandboxed
          </span>
        )}
        {card.runner && (
          <span className="card-runner" title={`This task's agent runs on the ${card.runner} runner (see Settings → Runners).`}>
            {card.runner}
          </span>
        )}
        <Elapsed since={card.submittedAt} until={card.endedAt} />
      </div>
      <h3 className="card-title">{card.title}</h3>
      {card.needsAnswer && <p className="card-needs">Needs your answer</p>}
      {card.activity && <p className="card-activity">{card.activity}</p>}
      {(card.dependencies.length > 0 || card.canLink) && (
        <div className="card-links">
          {card.dependencies.length > 0 && (
            <ul className="deps" aria-label="Dependencies">
              {card.dependencies.map((dependency) => (
                <DependencyBadge key={dependency.id} taskId={id} dependency={dependency.id} state={dependency.state} removable={card.canLink} />
              ))}
            </ul>
          )}
          {card.canLink && (
            <button
              type="button"
              className="quiet small card-link"
              onClick={(event) => {
                event.stopPropagation();
                desk().openDialog({ kind: 'link', taskId: id });
              }}
            >
              Wait for…
            </button>
          )}
        </div>
      )}
    </article>
  );
});
