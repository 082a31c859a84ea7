// What a task in Review changed, in all, on its card: the same words as the Changes tab's summary.
import type { ChangeCount } from '../../../shared/task';

export function CardChanges({ changes }: { changes: ChangeCount }) {
  return (
    <p className="card-changes" aria-label="What changed">
      {changes.files} {changes.files === 1 ? 'file' : 'files'} changed, <span className="plus">+{changes.additions}</span> <span className="minus">−{changes.deletions}</span>
    </p>
  );
}
