// The words the board shows for a request's unaddressed feedback ("2 comments, 1 failed check"), the same on the card
// and in the review panel. Plain TypeScript, no zod, so the board's bundle stays small.
import type { PullRequestFeedback } from './pull-request-feedback';

/** How many comments (unaddressed, not resolved) and failed checks (unaddressed) still ask for something. */
export function unaddressedCounts(feedback: PullRequestFeedback | undefined): { comments: number; checks: number } {
  return {
    comments: (feedback?.comments ?? []).filter((comment) => comment.addressedIn === undefined && comment.resolved !== true).length,
    checks: (feedback?.failedChecks ?? []).filter((check) => check.addressedIn === undefined).length,
  };
}

/** "2 comments, 1 failed check" (or joined by `joiner`); undefined for none of either. */
export function feedbackWords(comments: number, checks: number, joiner = ', '): string | undefined {
  const parts = [comments > 0 && `${comments} comment${comments === 1 ? '' : 's'}`, checks > 0 && `${checks} failed check${checks === 1 ? '' : 's'}`].filter(Boolean);
  return parts.length > 0 ? parts.join(joiner) : undefined;
}

/** "2 comments, 1 failed check"; undefined when nothing is unaddressed. */
export function unaddressedText(feedback: PullRequestFeedback | undefined): string | undefined {
  const { comments, checks } = unaddressedCounts(feedback);
  return feedbackWords(comments, checks);
}
