// A task's card: title, id, agent, elapsed time, what it changed (in Review), latest activity, dependency badges and
// whether it needs an answer. Memoized by id; it reads only its own task, its activity and its dependencies' statuses.
import { memo, useMemo, useState, type DragEvent, type KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { cardViewModel } from '../state/selectors';
import { UnboundedBadge } from './unbounded-badge';
import { desk, useDesk } from '../state/store';
import { DependencyBadge } from './dependency-badge';
import { carriesTask, draggedTask, startTaskDrag } from './drag';
import { Elapsed } from './elapsed';
import { isSelectable, pickCard } from './selection';
import { QuietNote } from './quiet-note';
import { NoChangesNote } from './no-changes-note';
import { CardAttempts } from './card-attempts';
import { AttentionNote } from './attention-note';
import { ProposalBar } from './proposal-bar';
import { CardPullRequest } from './card-pull-request';
import { CardChanges } from './card-changes';
import { relativeText } from '../task/stream/worktree-path';

export const TaskCard = memo(function TaskCard({ id }: { id: string }) {
  const task = useDesk((state) => state.tasks[id]);
  const activity = useDesk((state) => state.activity[id]);
  const selected = useDesk((state) => state.openTaskId === id);
  // The repository is worth a word on the card only when the desk has more than one.
  const severalRepos = useDesk((state) => (state.repos?.length ?? 0) > 1);
  const picked = useDesk((state) => state.selected.includes(id));
  const dependencyStatuses = useDesk(useShallow((state) =>
    (state.tasks[id]?.dependencies ?? []).map((dependency) => state.tasks[dependency]?.status ?? ('unknown' as const))));
  const card = useMemo(() => task && cardViewModel(task, activity, dependencyStatuses), [task, activity, dependencyStatuses]);
  const [dropping, setDropping] = useState(false);
  if (!card) return null;

  const open = (event: { shiftKey: boolean }) => {
    if (event.shiftKey && isSelectable(card)) pickCard(id, true);
    else desk().openTask(id);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.target === event.currentTarget && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      open(event);
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
      data-task-id={id}
      className={`card card-${card.column}${selected ? ' card-selected' : ''}${picked ? ' card-picked' : ''}${dropping ? ' card-drop' : ''}`}
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
        {isSelectable(card) && (
          <input
            type="checkbox"
            className="card-pick"
            aria-label={`Select task ${id}`}
            checked={picked}
            readOnly
            onClick={(event) => {
              event.stopPropagation();
              pickCard(id, event.shiftKey);
            }}
          />
        )}
        <span className="card-id">{card.id}</span>
        {severalRepos && task?.repo && <span className="card-repo" title={`Repository ${task.repo}`}>{task.repo}</span>}
        <span className="card-agent" title={card.agent === card.agentId ? `Agent ${card.agentId}` : `Agent ${card.agent} (the desk's agent ${card.agentId})`}>{card.agent}</span>
        {card.unsandboxed && (
          <span className="card-unsandboxed" title="This task's agent runs without the OS sandbox: it can reach whatever you can. Settings says why.">
            unsandboxed
          </span>
        )}
        <UnboundedBadge runner={card.runner} />
        {card.runner && (
          <span className="card-runner" title={`This task's agent runs on the ${card.runner} runner (see Settings → Runners).`}>
            {card.runner}
          </span>
        )}
        <Elapsed time={card.time} />
      </div>
      <h3 className="card-title">{card.title}</h3>
      {task?.attention && task.status === 'completed' && task.review === 'pending' && <AttentionNote files={task.attention} />}
      {card.proposedBy !== undefined && <ProposalBar id={id} proposedBy={card.proposedBy} pending={card.proposalPending} />}
      {card.needsAnswer && <p className="card-needs">Needs your answer</p>}
      {task?.conflict && <p className="card-conflict">Conflicts with {task.conflict.baseBranch}: {task.conflict.files.join(', ')}</p>}
      {task?.push && (
        <p className={`card-push ${task.push.ok ? 'card-push-ok' : 'card-push-failed'}`} title={task.push.message}>
          {task.push.ok ? `Pushed ${task.push.branch} to ${task.push.remote}` : task.push.message}
        </p>
      )}
      {task?.pullRequest && <CardPullRequest taskId={id} pullRequest={task.pullRequest} archived={task.archived === true} />}
      {card.column === 'review' && task?.changes && <CardChanges changes={task.changes} />}
      {card.activity && <p className="card-activity">{relativeText(card.activity, undefined)}</p>}
      {task?.noChanges && task.status === 'completed' && <NoChangesNote noChanges={task.noChanges} />}
      {task?.attemptsBrief && <CardAttempts attempts={task.attemptsBrief} />}
      {task?.quietSince && task.status === 'in-progress' && <QuietNote taskId={id} since={task.quietSince} />}
      {card.dependencies.length > 0 && (
        <div className="card-links">
          <ul className="deps" aria-label="Dependencies">
            {card.dependencies.map((dependency) => (
              <DependencyBadge key={dependency.id} taskId={id} dependency={dependency.id} state={dependency.state} removable={card.canLink} />
            ))}
          </ul>
        </div>
      )}
    </article>
  );
});
