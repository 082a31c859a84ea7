// "No changes · 2 failed" on a card whose agent ended its turn without changing a file (the summary's `noChanges`):
// such a task is completed with nothing to review, which a plain "completed" would hide. The whole summary is its title.
import type { NoChanges } from '../../../shared/task';

export function NoChangesNote({ noChanges }: { noChanges: NoChanges }) {
  const failed = noChanges.failed.length;
  return (
    <p className="card-no-changes" title={noChanges.summary}>
      No changes{failed > 0 ? ` · ${failed} failed` : ''}
    </p>
  );
}
