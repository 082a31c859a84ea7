// The review panel's feedback from the forge: each comment with its author, file and line (a link to that line of the
// diff where the file is in the task) and each failed check, ticked to address; a note; and "Address", which starts
// the agent's follow-up turn. While that turn is on its way, it says so instead.
import { useState } from 'react';
import { unaddressedText } from '../../../../shared/feedback-summary';
import type { FeedbackComment } from '../../../../shared/pull-request-feedback';
import { capitalized, requestNoun } from '../../state/pull-request-slice';
import { desk, useDesk } from '../../state/store';

const isOpen = (comment: FeedbackComment) => comment.addressedIn === undefined && comment.resolved !== true;

export function ReviewFeedback({ taskId, filesInTask, onShowLine }: { taskId: string; filesInTask: readonly string[]; onShowLine(path: string, line?: number): void }) {
  const pullRequest = useDesk((state) => state.tasks[taskId]?.pullRequest);
  const busy = useDesk((state) => state.pullRequestBusy.includes(taskId));
  // Only what the person changed: a comment arriving later starts ticked when it still asks for something.
  const [choice, setChoice] = useState<Readonly<Record<string, boolean>>>({});
  const [checks, setChecks] = useState(true);
  const [note, setNote] = useState('');
  const feedback = pullRequest?.feedback;
  if (!pullRequest || (!feedback && !pullRequest.feedbackError)) return null;
  const noun = requestNoun(pullRequest);
  const comments = feedback?.comments ?? [];
  const failed = (feedback?.failedChecks ?? []).filter((check) => check.addressedIn === undefined);
  const isTicked = (comment: FeedbackComment) => choice[comment.id] ?? isOpen(comment);
  const ticked = comments.filter(isTicked);
  const addressing = pullRequest.addressing;
  const toggle = (id: string, on: boolean) => setChoice((before) => ({ ...before, [id]: on }));
  const address = async () => {
    const started = await desk().addressFeedback(taskId, { commentIds: ticked.map((comment) => comment.id), includeChecks: checks && failed.length > 0, ...(note.trim() && { note }) });
    if (started) {
      setNote('');
      setChoice({});
    }
  };
  const nothing = ticked.length === 0 && !(checks && failed.length > 0) && !note.trim();

  return (
    <section className="review-feedback" aria-label="Review feedback">
      <h3>Review <span className="feedback-count">{unaddressedText(feedback) ?? 'nothing unaddressed'}</span></h3>
      {pullRequest.feedbackError && <p className="feedback-error" role="alert">Could not read the {noun}: {pullRequest.feedbackError}</p>}
      {comments.length === 0 && failed.length === 0 && <p className="diff-note">No comments or failed checks on the {noun} yet.</p>}
      <ul className="feedback-list">
        {comments.map((comment) => (
          <li key={comment.id} className={isOpen(comment) ? 'feedback-open' : 'feedback-done'}>
            <label>
              <input type="checkbox" aria-label={`Address the comment by ${comment.author}${comment.path ? ` on ${comment.path}${comment.line ? ` line ${comment.line}` : ''}` : ''}`} disabled={!!addressing} checked={isTicked(comment)} onChange={(event) => toggle(comment.id, event.target.checked)} />
              <strong>{comment.author}</strong>
            </label>{' '}
            <Where comment={comment} inTask={comment.path !== undefined && filesInTask.includes(comment.path)} onShowLine={onShowLine} />{' '}
            <a href={comment.url} target="_blank" rel="noreferrer" className="quiet">on the forge</a>
            {comment.resolved && <span className="feedback-tag">resolved</span>}
            {comment.addressedIn && <span className="feedback-tag">addressed in {comment.addressedIn.slice(0, 8)}</span>}
            <p className="feedback-body">{comment.body}</p>
          </li>
        ))}
        {failed.map((check) => (
          <li key={`check:${check.name}`} className="feedback-open feedback-check">
            <strong>{check.name}</strong> failed{' '}
            <a href={check.url} target="_blank" rel="noreferrer" className="quiet">details</a>
            {check.summary && <p className="feedback-body">{check.summary}</p>}
          </li>
        ))}
      </ul>
      {addressing ? (
        <p className="feedback-addressing" role="status">
          The agent is addressing {addressing.commentIds.length} comment{addressing.commentIds.length === 1 ? '' : 's'}
          {addressing.checks.length > 0 && ` and ${addressing.checks.length} failed check${addressing.checks.length === 1 ? '' : 's'}`}
          {addressing.auto ? ' (started by itself: forge.autoAddress)' : ''}; its commit goes to the {noun}.
        </p>
      ) : (
        <div className="feedback-actions">
          {failed.length > 0 && (
            <label className="feedback-checks-choice"><input type="checkbox" checked={checks} onChange={(event) => setChecks(event.target.checked)} /> Include the failed checks</label>
          )}
          <label className="feedback-note">Note to the agent <textarea rows={2} value={note} placeholder="Optional: what to do, what to leave alone" onChange={(event) => setNote(event.target.value)} /></label>
          <button type="button" disabled={busy || nothing} title={`Start a follow-up turn on the ticked feedback; its commit is pushed to the ${noun}`} onClick={() => void address()}>
            {busy ? 'Starting…' : 'Address'}
          </button>
          <span className="quiet small">{capitalized(noun)} #{pullRequest.number}</span>
        </div>
      )}
    </section>
  );
}

/** "src/a.ts:12" as a link into the diff when the file is in the task, as text otherwise; "general" for the conversation. */
function Where({ comment, inTask, onShowLine }: { comment: FeedbackComment; inTask: boolean; onShowLine(path: string, line?: number): void }) {
  if (!comment.path) return <span className="feedback-where">general</span>;
  const text = comment.line ? `${comment.path}:${comment.line}` : comment.oldLine ? `${comment.path}: removed line ${comment.oldLine}` : comment.path;
  if (!inTask) return <span className="feedback-where">{text}</span>;
  return (
    <button type="button" className="link feedback-where" aria-label={comment.line ? `Show line ${comment.line} of ${comment.path}` : `Show ${comment.path}`} onClick={() => onShowLine(comment.path as string, comment.line)}>
      {text}
    </button>
  );
}
