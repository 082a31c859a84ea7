// On the card of a task another task's agent proposed: who proposed it and, while the proposal waits for a person,
// Approve (it may run) and Dismiss (it never runs).
import { desk } from '../state/store';

export function ProposalBar({ id, proposedBy, pending }: { id: string; proposedBy: string; pending: boolean }) {
  return (
    <div className="card-proposal">
      <span className={`proposal-badge${pending ? ' proposal-pending' : ''}`} title={pending ? 'An agent proposed this task; it runs only once you approve it.' : undefined}>
        Proposed by {proposedBy}
      </span>
      {pending && (
        <span className="proposal-actions">
          <button type="button" className="primary small" aria-label={`Approve proposed task ${id}`}
            onClick={(event) => { event.stopPropagation(); void desk().acceptProposal(id); }}>
            Approve
          </button>
          <button type="button" className="quiet small" aria-label={`Dismiss proposed task ${id}`}
            onClick={(event) => { event.stopPropagation(); void desk().dismissProposal(id); }}>
            Dismiss
          </button>
        </span>
      )}
    </div>
  );
}
