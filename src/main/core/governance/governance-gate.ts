// The governance service seen from the task service: review a request, then close it with what happened.
import { GovernanceOutcome } from '../../../shared/governance';
import type { PermissionGate } from '../tasks/agent-requests';
import type { GovernanceService } from './governance-service';

export function createGovernanceGate(governance: GovernanceService, log: (message: string) => void): PermissionGate {
  return {
    review(input) {
      // An APPROVAL stays open until complete() says what became of it.
      const record = governance.review({ ...input, source: 'acp' });
      // An APPROVAL review always ends in a decision; a missing one would be a bug, and must never approve.
      return { id: record.id, decision: record.decision ?? 'rejected', rule: record.rule, reason: record.reason };
    },
    closeOpen(taskId) {
      for (const state of ['pending', 'validating', 'approved', 'rejected', 'escalated'] as const) {
        for (const record of governance.list({ taskId, state, limit: 1000 })) this.complete(record.id, { outcome: 'cancelled' });
      }
    },
    complete(id, { outcome, answeredBy }) {
      try {
        governance.complete(id, { outcome: GovernanceOutcome.parse(outcome), ...(answeredBy !== undefined && { answeredBy }) });
      } catch (error) {
        // The audit log refuses a second ending (a race with cancel); the agent has its answer either way.
        log(`Could not close governance request ${id}: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}
