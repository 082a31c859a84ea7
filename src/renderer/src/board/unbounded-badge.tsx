// The "unbounded" mark on a card whose task runs on this machine where limits cannot be enforced per task.
import { useDesk } from '../state/store';

export function UnboundedBadge({ runner }: { runner: string | undefined }) {
  const enforced = useDesk((state) => state.settings?.sandbox.limits?.enforced);
  // Tasks on a docker or cluster runner get their container's limits.
  if (enforced !== false || runner !== undefined) return null;
  return (
    <span className="card-unsandboxed" title="This task's memory and processes are not limited as a whole: a runaway can slow this machine down. Settings → Task limits says why.">
      unbounded
    </span>
  );
}
