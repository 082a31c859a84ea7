// Where a task in review stands against its base branch: behind / ahead, "Update from base" (merge or rebase), and,
// when an update stopped on conflicts, the files and the ways on: ask the agent, edit them yourself, or undo.
import { useEffect, useId, useState } from 'react';
import { deskBridge } from '../../../../shared/desk-bridge';
import type { UpdateStrategy } from '../../../../shared/base-update';
import { desk, useDesk } from '../../state/store';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

export function BasePanel({ taskId }: { taskId: string }) {
  const task = useDesk((state) => state.tasks[taskId]);
  const base = useDesk((state) => state.baseStatus[taskId]);
  const worktree = useDesk((state) => state.details[taskId]?.worktreePath);
  const [strategy, setStrategy] = useState<UpdateStrategy>('merge');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const noteId = useId();
  const inReview = task?.status === 'completed' && task.review === 'pending';

  // Read again whenever the task changes (a new commit, a conflict, a resolution) and when another task is approved.
  const updatedAt = task?.updatedAt;
  useEffect(() => {
    if (inReview) void desk().loadBaseStatus(taskId);
  }, [taskId, inReview, updatedAt]);

  if (!task || !inReview && !task.conflict) return null;
  const conflict = task.conflict;
  const run = async (work: () => Promise<boolean>) => {
    setBusy(true);
    try { await work(); } finally { setBusy(false); }
  };

  if (conflict) {
    const bridge = deskBridge();
    return (
      <section className="base-panel base-conflict" aria-label="Conflicts with the base branch">
        <p className="base-line">
          <strong>Conflicts with {conflict.baseBranch}</strong> — the update waits in the worktree with conflict markers in:
        </p>
        <ul className="conflict-files" aria-label="Conflicted files">
          {conflict.files.map((file) => (
            <li key={file}>
              <code>{file}</code>
              {bridge.runtime === 'electron' && worktree && (
                <button type="button" className="quiet small" onClick={() => void bridge.openInEditor(`${worktree}/${file}`)}>Open in editor</button>
              )}
            </li>
          ))}
        </ul>
        {worktree && bridge.runtime !== 'electron' && <p className="base-hint">To edit them yourself, open them in <code>{worktree}</code>, then choose Mark resolved.</p>}
        <label htmlFor={noteId} className="base-hint">Tell the agent how (optional)</label>
        <textarea id={noteId} className="base-note" rows={2} value={note} onChange={(event) => setNote(event.target.value)}
          placeholder="e.g. keep both changes" />
        <div className="base-actions">
          <button type="button" className="primary" disabled={busy}
            onClick={() => void run(async () => { const asked = await desk().askAgentToResolve(taskId, note); if (asked) setNote(''); return asked; })}>
            Ask the agent to resolve
          </button>
          <button type="button" disabled={busy} title="Commit the files as you resolved them in your editor" onClick={() => void run(() => desk().markResolved(taskId))}>Mark resolved</button>
          <button type="button" disabled={busy} title="Abort the merge: the branch as it was before the update" onClick={() => void run(() => desk().undoUpdate(taskId))}>Undo update</button>
        </div>
      </section>
    );
  }

  if (!base) return null;
  const behind = base.behind > 0;
  return (
    <section className={`base-panel${behind ? ' base-behind' : ''}`} aria-label="Base branch">
      <p className="base-line">
        {behind
          ? <><strong>Behind {base.baseBranch}</strong> by {plural(base.behind, 'commit')} · {plural(base.ahead, 'commit')} ahead</>
          : <>Up to date with {base.baseBranch} · {plural(base.ahead, 'commit')} ahead</>}
      </p>
      {behind && (
        <div className="base-actions">
          <div className="segmented" role="group" aria-label="Update strategy">
            <button type="button" aria-pressed={strategy === 'merge'} onClick={() => setStrategy('merge')}>Merge</button>
            <button type="button" aria-pressed={strategy === 'rebase'} onClick={() => setStrategy('rebase')}>Rebase</button>
          </div>
          <button type="button" className="primary" disabled={busy} onClick={() => void run(() => desk().updateFromBase(taskId, strategy))}>
            Update from base
          </button>
        </div>
      )}
    </section>
  );
}
