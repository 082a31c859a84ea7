// The "Changes" tab: review actions, the changed files, and the chosen file's diff.
import { useEffect, useMemo, useState } from 'react';
import { isViewed, diffKey } from '../../../../shared/viewed';
import { desk, useDesk } from '../../state/store';
import { DiffView } from './diff-view';
import { FileList } from './file-list';
import { BasePanel } from './base-panel';
import { attentionFirst, filesInTreeOrder, fileTree } from './file-tree';
import { ReviewActions } from './review-actions';
import { PullRequestPanel } from './pull-request-panel';
import { ReviewFeedback } from './review-feedback';
import { CheckPanel } from './check-panel';
import { AttemptsPanel } from './attempts-panel';
import '../../styles/diff.css';

export function ChangesTab({ taskId }: { taskId: string }) {
  const diff = useDesk((state) => state.diffs[taskId]);
  const commit = useDesk((state) => state.tasks[taskId]?.commit);
  const status = useDesk((state) => state.tasks[taskId]?.status);
  const layout = useDesk((state) => state.diffLayout);
  const [selected, setSelected] = useState<string>();
  // A line a review comment points at; `at` makes a second click on the same line scroll there again.
  const [focus, setFocus] = useState<{ path: string; line?: number; at: number }>();
  const marks = useDesk((state) => state.viewed[taskId]);
  useEffect(() => void desk().loadViewed(taskId), [taskId]);

  const waiting = status === 'queued' && !commit;
  useEffect(() => {
    if (!waiting) void desk().loadDiff(taskId);
  }, [taskId, commit, status, waiting]);

  // Files that run on the person's machine come first (the desk marks them), the rest in tree order.
  const files = useMemo(() => attentionFirst(filesInTreeOrder(fileTree(diff?.data?.files ?? []))), [diff?.data]);
  const flagged = files.filter((candidate) => candidate.attention).length;
  const file = files.find((candidate) => candidate.path === selected) ?? files[0];
  const added = files.reduce((sum, candidate) => sum + candidate.additions, 0);
  const removed = files.reduce((sum, candidate) => sum + candidate.deletions, 0);

  return (
    <div className="changes">
      <ReviewActions taskId={taskId} />
      <AttemptsPanel taskId={taskId} />
      <CheckPanel taskId={taskId} />
      <PullRequestPanel taskId={taskId} />
      <ReviewFeedback taskId={taskId} filesInTask={files.map((candidate) => candidate.path)} onShowLine={(path, line) => {
        setSelected(path);
        setFocus({ path, ...(line !== undefined && { line }), at: Date.now() });
      }} />
      <BasePanel taskId={taskId} />
      <div className="diff-toolbar">
        <span className="diff-summary">
          {diff?.data ? `${files.length} ${files.length === 1 ? 'file' : 'files'} changed, +${added} −${removed}` : diff?.loading ? 'Loading the changes…' : ''}
        </span>
        <div className="segmented" role="group" aria-label="Diff layout">
          <button type="button" aria-pressed={layout === 'unified'} onClick={() => desk().setDiffLayout('unified')}>Unified</button>
          <button type="button" aria-pressed={layout === 'split'} onClick={() => desk().setDiffLayout('split')}>Side by side</button>
        </div>
      </div>
      {waiting && <p className="diff-note">This task has not started yet, so it has no changes.</p>}
      {!waiting && diff?.error && <p className="diff-note">{diff.error}</p>}
      {diff?.data?.live && (
        // Read on demand: a diff per agent event would cost a git run per keystroke of the agent.
        <p className="diff-note diff-live" role="note">
          The agent is not done: these are the files in its worktree as they were when loaded, not yet committed.{' '}
          <button type="button" onClick={() => void desk().loadDiff(taskId)}>Refresh changes</button>
        </p>
      )}
      {flagged > 0 && (
        <p className="diff-note diff-attention" role="note">
          {flagged === 1 ? '1 file' : `${flagged} files`} can run code or steer agents on your machine once merged; listed first and marked.
          {file?.attention && <> <code>{file.path}</code>: {file.attention.reason}</>}
        </p>
      )}
      {diff?.data && files.length === 0 && <p className="diff-note">{diff.data.live ? 'The agent has changed no files yet.' : 'This task changed no files.'}</p>}
      {!waiting && file && (
        <div className="changes-body">
          <FileList
            files={files}
            selected={file.path}
            onSelect={setSelected}
            viewed={(candidate) => isViewed(marks ?? {}, candidate)}
            onViewed={(candidate, viewed) => void desk().setViewed(taskId, candidate.path, diffKey(candidate), viewed)}
          />
          <DiffView key={`${file.path}:${layout}`} taskId={taskId} file={file} layout={layout} focus={focus?.path === file.path ? focus : undefined} />
        </div>
      )}
    </div>
  );
}
