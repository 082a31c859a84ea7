// What a reviewer can do with a task: Approve (merge into the base branch), Refine (send the line
// comments as one follow-up), Reject (confirm; discards the branch), Cancel (confirm), Re-run.
import { useShallow } from 'zustand/react/shallow';
import { isFinished } from '../../state/selectors';
import { desk, useDesk } from '../../state/store';
import { refinePrompt } from './refine';

export function ReviewActions({ taskId }: { taskId: string }) {
  const { status, review, comments } = useDesk(useShallow((state) => ({
    status: state.tasks[taskId]?.status, review: state.tasks[taskId]?.review, comments: state.comments[taskId]?.length ?? 0,
  })));
  if (!status) return null;
  const finished = isFinished(status);
  const reviewable = review === 'pending';

  const refine = async () => {
    const gathered = desk().comments[taskId] ?? [];
    if (await desk().sendFollowUp(taskId, refinePrompt(gathered))) desk().clearComments(taskId);
  };

  return (
    <div className="review-actions" role="toolbar" aria-label="Review actions">
      <button
        type="button"
        className="primary"
        disabled={status !== 'completed' || !reviewable}
        title={review === 'approved' ? 'Approved and merged already' : 'Merge this task’s branch into the base branch'}
        onClick={() => void desk().approveTask(taskId)}
      >
        Approve
      </button>
      <button
        type="button"
        disabled={!finished || comments === 0}
        title={comments === 0 ? 'Comment on lines first; Refine sends them all as one follow-up' : 'Send the comments as one follow-up'}
        onClick={() => void refine()}
      >
        Refine
      </button>
      {comments > 0 && <span className="hint">{comments} {comments === 1 ? 'comment' : 'comments'}</span>}
      <span className="toolbar-gap" />
      <button type="button" disabled={!finished || !reviewable} onClick={() => desk().openDialog({ kind: 'confirm-reject', taskId })}>Reject</button>
      <button type="button" disabled={finished} onClick={() => desk().openDialog({ kind: 'confirm-cancel', taskId })}>Cancel</button>
      <button type="button" disabled={!finished} title="Run the same prompt again from scratch" onClick={() => void desk().rerunTask(taskId)}>Re-run</button>
    </div>
  );
}
