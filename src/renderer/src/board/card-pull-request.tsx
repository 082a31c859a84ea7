// The card's line for a task's pull or merge request: its badge, the feedback nobody addressed yet ("2 comments, 1
// failed check") or the turn addressing it; once it is merged on the forge, the task can be archived in one click.
import { unaddressedText } from '../../../shared/feedback-summary';
import type { PullRequest } from '../../../shared/pull-request';
import { desk } from '../state/store';
import { PullRequestBadge } from './pull-request-badge';

export function CardPullRequest({ taskId, pullRequest, archived }: { taskId: string; pullRequest: PullRequest; archived: boolean }) {
  const unaddressed = unaddressedText(pullRequest.feedback);
  const addressing = pullRequest.addressing;
  return (
    <p className="card-pr">
      <PullRequestBadge pullRequest={pullRequest} />
      {addressing
        ? <span className="card-feedback card-feedback-addressing">{addressing.auto ? 'Addressing feedback (auto)' : 'Addressing feedback'}</span>
        : unaddressed && pullRequest.state === 'open' && <span className="card-feedback" title="Review feedback no pushed turn has addressed yet">{unaddressed}</span>}
      {pullRequest.state === 'merged' && !archived && (
        <button
          type="button"
          className="small"
          aria-label={`Archive task ${taskId}`}
          title="Merged on the forge: hide it from the board (the Archived filter still shows it)"
          onClick={(event) => {
            event.stopPropagation();
            void desk().archiveTask(taskId);
          }}
          onKeyDown={(event) => event.stopPropagation()}
        >
          Archive
        </button>
      )}
    </p>
  );
}
