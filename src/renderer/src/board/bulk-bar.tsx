// The bar over the board while cards are selected: approve, reject or archive them all (one request after another),
// with progress while it runs and each task's result after.
import { useShallow } from 'zustand/react/shallow';
import type { BulkAction } from '../state/review-slice';
import { desk, useDesk } from '../state/store';

const RUNNING: Record<BulkAction, string> = { approve: 'Approving', reject: 'Rejecting', archive: 'Archiving' };

export function BulkBar() {
  const { selected, bulk } = useDesk(useShallow((state) => ({ selected: state.selected, bulk: state.bulk })));
  if (selected.length === 0 && !bulk) return null;
  const running = bulk?.running === true;
  const count = selected.length;

  return (
    <section className="bulk-bar" aria-label="Selected tasks">
      <span className="bulk-count">{count} selected</span>
      <div className="bulk-actions">
        <button type="button" className="primary" disabled={running || count === 0} onClick={() => void desk().runBulk('approve')}>Approve selected</button>
        <button type="button" disabled={running || count === 0} onClick={() => desk().openDialog({ kind: 'confirm-bulk-reject', count })}>Reject selected</button>
        <button type="button" disabled={running || count === 0} onClick={() => void desk().runBulk('archive')}>Archive selected</button>
        <button type="button" className="quiet" disabled={running || count === 0} onClick={() => desk().clearSelection()}>Clear selection</button>
      </div>
      {bulk && (
        <div className="bulk-progress">
          <span role="status">
            {running
              ? `${RUNNING[bulk.action]} ${Math.min(bulk.results.length + 1, bulk.total)} of ${bulk.total}…`
              : `Done: ${bulk.results.filter((r) => r.ok).length} of ${bulk.total} ${bulk.action === 'approve' ? 'approved' : bulk.action === 'reject' ? 'rejected' : 'archived'}.`}
          </span>
          <progress max={bulk.total} value={bulk.results.length} aria-label="Progress" />
          <ul className="bulk-results" aria-label="Results">
            {bulk.results.map((result) => (
              <li key={result.id} className={result.ok ? 'bulk-ok' : 'bulk-failed'}>
                <code>{result.id}</code> {result.ok ? result.message : `not done: ${result.message}`}
              </li>
            ))}
          </ul>
          {!running && <button type="button" className="quiet small" onClick={() => desk().dismissBulk()}>Dismiss results</button>}
        </div>
      )}
    </section>
  );
}
