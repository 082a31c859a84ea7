// The decisions about a request's feedback, pure: what the desk keeps of a fresh read (its own comments left out,
// what was addressed remembered), what a person chose to address, the follow-up prompt, and what `forge.autoAddress`
// takes on by itself.
import { deskError } from '../../../shared/desk-error';
import type { PullRequest } from '../../../shared/pull-request';
import type { AddressFeedback, AutoAddress, FailedCheck, FeedbackComment, PullRequestFeedback } from '../../../shared/pull-request-feedback';
import type { ForgeComment } from '../forge/forge-api';

/** Put in every reply the desk writes, so its replies stay out even where the forge won't say who the token is. */
export const DESK_MARK = '<!-- assignment-desk -->';
/** The most comments the desk keeps per request (the newest). */
const MAX_COMMENTS = 200;

export const checkKey = (check: Pick<FailedCheck, 'name' | 'head'>) => `check:${check.name}@${check.head ?? ''}`;

/** A comment still asks for something: nobody addressed it and its thread is not resolved. */
export const isOpenComment = (comment: FeedbackComment) => comment.addressedIn === undefined && comment.resolved !== true;
export const isOpenCheck = (check: FailedCheck) => check.addressedIn === undefined;

/**
 * What the desk keeps of what it just read: comments by `self` (the desk's token) or carrying the desk's mark left
 * out; each comment and failed check keeps the commit that addressed it from the previous read.
 */
export function keepFeedback(read: { comments: readonly ForgeComment[]; failedChecks: readonly FailedCheck[] }, previous: PullRequestFeedback | undefined, self: string | undefined): PullRequestFeedback {
  const addressedComments = new Map((previous?.comments ?? []).filter((c) => c.addressedIn).map((c) => [c.id, c.addressedIn as string]));
  const addressedChecks = new Map((previous?.failedChecks ?? []).filter((c) => c.addressedIn).map((c) => [checkKey(c), c.addressedIn as string]));
  const comments = read.comments
    .filter((comment) => comment.author !== self && !comment.body.includes(DESK_MARK))
    .slice(-MAX_COMMENTS)
    .map((comment): FeedbackComment => {
      const addressedIn = addressedComments.get(comment.id);
      return addressedIn ? { ...comment, addressedIn } : { ...comment };
    });
  const failedChecks = read.failedChecks.map((check): FailedCheck => {
    const addressedIn = addressedChecks.get(checkKey(check));
    return addressedIn ? { ...check, addressedIn } : { ...check };
  });
  return withCount(comments, failedChecks);
}

function withCount(comments: FeedbackComment[], failedChecks: FailedCheck[]): PullRequestFeedback {
  return { comments, failedChecks, unaddressed: comments.filter(isOpenComment).length + failedChecks.filter(isOpenCheck).length };
}

/** Marks what a pushed turn addressed with its commit. */
export function markAddressed(feedback: PullRequestFeedback, commentIds: readonly string[], checks: readonly string[], commit: string): PullRequestFeedback {
  const ids = new Set(commentIds);
  const names = new Set(checks);
  return withCount(
    feedback.comments.map((comment) => (ids.has(comment.id) && !comment.addressedIn ? { ...comment, addressedIn: commit } : comment)),
    feedback.failedChecks.map((check) => (names.has(check.name) && !check.addressedIn ? { ...check, addressedIn: commit } : check)),
  );
}

export interface Chosen { comments: FeedbackComment[]; checks: FailedCheck[]; note?: string }

/** What a person asked to address: the named comments (default: every open one) and the failed checks (default: yes). */
export function chooseFeedback(pullRequest: PullRequest, input: AddressFeedback): Chosen {
  const feedback = pullRequest.feedback ?? { comments: [], failedChecks: [], unaddressed: 0 };
  const unknown = (input.commentIds ?? []).filter((id) => !feedback.comments.some((comment) => comment.id === id));
  if (unknown.length > 0) {
    throw deskError('invalid', 'unknown_comment', `No comment ${unknown.join(', ')} on the request; GET /tasks/<id> lists them under pullRequest.feedback.comments (refresh first if it is new).`, { commentIds: unknown });
  }
  const comments = input.commentIds ? feedback.comments.filter((comment) => input.commentIds?.includes(comment.id)) : feedback.comments.filter(isOpenComment);
  const checks = input.includeChecks === false ? [] : feedback.failedChecks.filter(isOpenCheck);
  const note = input.note?.trim();
  if (comments.length === 0 && checks.length === 0 && !note) {
    throw deskError('invalid', 'nothing_to_address', 'Nothing to address: the request has no unaddressed comment or failed check. Choose comments by id, or say what to do in a note.');
  }
  return { comments, checks, ...(note && { note }) };
}

/** The follow-up prompt: each comment verbatim with its file and line, each failed check with its summary, the note. */
export function addressPrompt(chosen: Chosen, request: { noun: string; url: string }): string {
  const parts = [`Address the review feedback on the ${request.noun} ${request.url}. Change the code where the feedback asks for it; the desk commits your changes and pushes them to the ${request.noun}.`];
  if (chosen.comments.length > 0) {
    parts.push(`Comments (${chosen.comments.length}):`);
    chosen.comments.forEach((comment, index) => {
      const where = comment.path ? `${comment.path}${comment.line ? `, line ${comment.line}` : comment.oldLine ? `, removed line ${comment.oldLine}` : ''}` : 'on the request';
      parts.push(`${index + 1}. ${comment.author} (${where}):\n${indent(comment.body)}`);
    });
  }
  if (chosen.checks.length > 0) {
    parts.push(`Failed checks (${chosen.checks.length}):`);
    chosen.checks.forEach((check) => parts.push(`- ${check.name}${check.summary ? `:\n${indent(check.summary)}` : ''}\n  ${check.url}`));
  }
  if (chosen.note) parts.push(`From the person who reviews this:\n${chosen.note}`);
  return parts.join('\n\n');
}

function indent(text: string): string {
  return text.split('\n').map((line) => `    ${line}`).join('\n');
}

/** The reply in an addressed comment's thread. */
export function addressedReply(commit: string): string {
  return `Addressed in ${commit}.\n\n${DESK_MARK}`;
}

/**
 * What `forge.autoAddress` takes on by itself now: the open feedback of its kinds that no automatic turn took on
 * before, while the request is open and fewer than `maxTurns` automatic turns ran; undefined when nothing.
 */
export function autoChoice(pullRequest: PullRequest, mode: AutoAddress, maxTurns: number): (Chosen & { keys: string[] }) | undefined {
  if (mode === 'off' || pullRequest.state !== 'open' || pullRequest.addressing || (pullRequest.autoTurns ?? 0) >= maxTurns) return undefined;
  const tried = new Set(pullRequest.autoTried ?? []);
  const feedback = pullRequest.feedback;
  if (!feedback) return undefined;
  const comments = mode === 'checks' ? [] : feedback.comments.filter((comment) => isOpenComment(comment) && !tried.has(comment.id));
  const checks = mode === 'comments' ? [] : feedback.failedChecks.filter((check) => isOpenCheck(check) && !tried.has(checkKey(check)));
  if (comments.length === 0 && checks.length === 0) return undefined;
  return { comments, checks, keys: [...comments.map((comment) => comment.id), ...checks.map(checkKey)] };
}
