// A task's pull or merge request in a few words: its link, state, draft and checks. The card and the review panel
// both show it; clicks on it never open the task underneath.
import type { PullRequest, PullRequestChecks } from '../../../shared/pull-request';

/** "PR #3" on GitHub, "MR !3" on GitLab, as each forge names its requests. */
export function requestLabel(pullRequest: Pick<PullRequest, 'forge' | 'number'>): string {
  return pullRequest.forge === 'gitlab' ? `MR !${pullRequest.number}` : `PR #${pullRequest.number}`;
}

export function checksText(checks: PullRequestChecks | undefined): string | undefined {
  if (!checks || checks.state === 'none') return undefined;
  if (checks.state === 'success') return 'checks passed';
  if (checks.state === 'failure') return checks.total > 1 ? `${checks.failed} of ${checks.total} checks failed` : 'checks failed';
  return checks.total > 1 ? `checks running (${checks.passed} of ${checks.total} passed)` : 'checks running';
}

export function PullRequestBadge({ pullRequest }: { pullRequest: PullRequest }) {
  const checks = checksText(pullRequest.checks);
  return (
    <span className="pr-badge">
      <a href={pullRequest.url} target="_blank" rel="noreferrer" onClick={(event) => event.stopPropagation()} onKeyDown={(event) => event.stopPropagation()}>
        {requestLabel(pullRequest)}
      </a>
      <span className={`pr-state pr-state-${pullRequest.state}`}>{pullRequest.state}</span>
      {pullRequest.draft && <span className="pr-draft">draft</span>}
      {checks && <span className={`pr-checks pr-checks-${pullRequest.checks?.state ?? 'none'}`}>{checks}</span>}
    </span>
  );
}
