// GitHub's answers about a pull request's feedback as the desk's comments and failed checks: review comments (on a line
// or a file, threaded by `in_reply_to_id`), reviews with words, conversation comments, and failing check runs. Pure.
import type { FailedCheck } from '../../../shared/pull-request-feedback';
import type { ForgeComment } from './forge-api';

/** The longest comment or summary the desk keeps; the rest is cut with a note (a log pasted in a comment, say). */
export const FEEDBACK_TEXT_MAX = 8_000;

interface GitHubUser { login?: string }

export interface GitHubReviewComment {
  id: number; user: GitHubUser | null; body: string; html_url: string; created_at: string;
  path?: string; line?: number | null; original_line?: number | null; in_reply_to_id?: number; subject_type?: 'line' | 'file';
  /** LEFT: the line is in the old version (a removed line). */
  side?: 'LEFT' | 'RIGHT' | null;
}
export interface GitHubReview { id: number; user: GitHubUser | null; body: string | null; state: string; html_url: string; submitted_at?: string | null }
export interface GitHubIssueComment { id: number; user: GitHubUser | null; body: string | null; html_url: string; created_at: string }
export interface GitHubCheckRun {
  name?: string; status: string; conclusion: string | null; html_url?: string | null; details_url?: string | null;
  head_sha?: string; output?: { title?: string | null; summary?: string | null } | null;
}

const FAILED = ['failure', 'timed_out', 'cancelled', 'action_required', 'startup_failure'];

export function cut(text: string, max = FEEDBACK_TEXT_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n… (cut after ${max} characters)`;
}

/** Every comment, oldest first; reviews that said nothing in words (a bare approval) are left out. */
export function githubComments(reviewComments: readonly GitHubReviewComment[], reviews: readonly GitHubReview[], issueComments: readonly GitHubIssueComment[]): ForgeComment[] {
  const onDiff = reviewComments.map((comment): ForgeComment => ({
    id: `review-comment-${comment.id}`, author: comment.user?.login ?? 'ghost', body: cut(comment.body ?? ''), url: comment.html_url, createdAt: comment.created_at,
    ...(comment.path && { path: comment.path }),
    ...(comment.subject_type !== 'file' && typeof comment.line === 'number' && comment.line > 0 && (comment.side === 'LEFT' ? { oldLine: comment.line } : { line: comment.line })),
    thread: `review-comment-${comment.in_reply_to_id ?? comment.id}`,
  }));
  const reviewed = reviews.filter((review) => (review.body ?? '').trim() !== '').map((review): ForgeComment => ({
    id: `review-${review.id}`, author: review.user?.login ?? 'ghost', body: cut(review.body ?? ''), url: review.html_url, createdAt: review.submitted_at ?? '',
  }));
  const general = issueComments.filter((comment) => (comment.body ?? '').trim() !== '').map((comment): ForgeComment => ({
    id: `comment-${comment.id}`, author: comment.user?.login ?? 'ghost', body: cut(comment.body ?? ''), url: comment.html_url, createdAt: comment.created_at,
  }));
  return [...onDiff, ...reviewed, ...general].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** The check runs that failed, with their output's title and summary. */
export function githubFailedChecks(runs: readonly GitHubCheckRun[], head: string): FailedCheck[] {
  return runs.filter((run) => run.status === 'completed' && FAILED.includes(run.conclusion ?? '')).map((run) => {
    const words = [run.output?.title, run.output?.summary].map((part) => part?.trim()).filter(Boolean).join('\n');
    return {
      name: run.name ?? 'check', url: run.html_url ?? run.details_url ?? '', head: run.head_sha ?? head,
      summary: cut(words ? `${run.conclusion}: ${words}` : String(run.conclusion), 2_000),
    };
  });
}

/** The root comment's number of a review-comment thread (`review-comment-<n>`), to reply in it. */
export function githubThreadRoot(comment: Pick<ForgeComment, 'id' | 'thread'>): number | undefined {
  const match = /^review-comment-(\d+)$/.exec(comment.thread ?? '');
  return match ? Number(match[1]) : undefined;
}
