// The review panel's pull or merge request: open one for a completed task (one click with the defaults, or a small
// form for title, description, base and draft), then its link, state, draft and checks, and a Refresh.
import { useState, type FormEvent } from 'react';
import { PullRequestBadge } from '../../board/pull-request-badge';
import { capitalized, requestNoun } from '../../state/pull-request-slice';
import { desk, useDesk } from '../../state/store';

export function PullRequestPanel({ taskId }: { taskId: string }) {
  const pullRequest = useDesk((state) => state.tasks[taskId]?.pullRequest);
  const status = useDesk((state) => state.tasks[taskId]?.status);
  const busy = useDesk((state) => state.pullRequestBusy.includes(taskId));
  if (!status) return null;
  if (pullRequest) {
    const noun = requestNoun(pullRequest);
    return (
      <section className="pr-panel" aria-label={capitalized(noun)}>
        <PullRequestBadge pullRequest={pullRequest} />
        <span className="pr-branches">{pullRequest.head} → {pullRequest.base}</span>
        <button type="button" className="small" disabled={busy} title={`Read the ${noun}'s state and checks from the forge now`} onClick={() => void desk().refreshPullRequest(taskId)}>
          {busy ? 'Refreshing…' : 'Refresh'}
        </button>
      </section>
    );
  }
  if (status !== 'completed') return null;
  return (
    <section className="pr-panel" aria-label="Pull request">
      <button
        type="button"
        disabled={busy}
        title="Push this task's branch to the repository's remote and open a pull request (GitHub) or merge request (GitLab) from it"
        onClick={() => void desk().openPullRequest(taskId)}
      >
        {busy ? 'Opening…' : 'Open pull request'}
      </button>
      <PullRequestOptions taskId={taskId} busy={busy} />
    </section>
  );
}

/** Title, description, base branch and draft, each left to the desk's default when empty. */
function PullRequestOptions({ taskId, busy }: { taskId: string; busy: boolean }) {
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [base, setBase] = useState('');
  const [draft, setDraft] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void desk().openPullRequest(taskId, {
      ...(title.trim() && { title: title.trim() }), ...(body.trim() && { body }), ...(base.trim() && { base: base.trim() }), draft,
    });
  };
  return (
    <details className="pr-options">
      <summary>Options</summary>
      <form aria-label="Pull request options" onSubmit={submit}>
        <label>Title <input value={title} placeholder="The task's title" maxLength={256} onChange={(event) => setTitle(event.target.value)} /></label>
        <label>Description <textarea value={body} placeholder="The task's prompt and the desk's summary" rows={4} onChange={(event) => setBody(event.target.value)} /></label>
        <label>Base branch <input value={base} placeholder="The task's base branch" onChange={(event) => setBase(event.target.value)} /></label>
        <label className="pr-draft-choice"><input type="checkbox" checked={draft} onChange={(event) => setDraft(event.target.checked)} /> Draft</label>
        <button type="submit" disabled={busy}>Open with these options</button>
      </form>
    </details>
  );
}
