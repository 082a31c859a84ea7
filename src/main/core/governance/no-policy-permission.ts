// Until a governance policy exists, every permission request is refused: an unanswered request must never approve. Pure.
import type { PermissionOutcome, PermissionRequest } from '../agents/agent-session';

export function refuseWithoutPolicy(request: PermissionRequest): PermissionOutcome {
  const reject = request.options.find((o) => o.kind === 'reject_once') ?? request.options.find((o) => o.kind.startsWith('reject'));
  return reject ? { outcome: 'selected', optionId: reject.optionId } : { outcome: 'cancelled' };
}
