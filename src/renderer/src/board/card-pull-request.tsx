// The card's line for a task's pull or merge request; once it is merged on the forge, the task can be archived in one
// click from here.
import type { PullRequest } from '../../../shared/pull-request';
import { desk } from '../state/store';
import { PullRequestBadge } from './pull-request-badge';

export function CardPullRequest({ taskId, pullRequest, archived }: { taskId: string; pullRequest: PullRequest; archived: boolean }) {
  return (
    <p className="card-pr">
      <PullRequestBadge pullRequest={pullRequest} />
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
