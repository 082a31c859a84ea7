// What a person can do to the task as a whole from its view: make a queued task wait for others, archive a finished
// one (or put it back on the board). Review decisions live in the Changes tab.
import { isFinished } from '../state/selectors';
import { desk, useDesk } from '../state/store';

export function TaskActions({ taskId }: { taskId: string }) {
  const status = useDesk((state) => state.tasks[taskId]?.status);
  const archived = useDesk((state) => state.tasks[taskId]?.archived === true);
  if (!status) return null;
  return (
    <div className="task-actions" role="toolbar" aria-label="Task actions">
      {status === 'queued' && (
        <button type="button" className="small" onClick={() => desk().openDialog({ kind: 'link', taskId })}>Wait for…</button>
      )}
      {isFinished(status) && !archived && (
        <button type="button" className="small" title="Hide it from the board; the Archived filter still shows it" onClick={() => void desk().archiveTask(taskId)}>
          Archive
        </button>
      )}
      {archived && <button type="button" className="small" onClick={() => void desk().unarchiveTask(taskId)}>Put back on the board</button>}
    </div>
  );
}
