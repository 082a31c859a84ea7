// "Task limits" in Settings: how each task's memory, processes and CPUs are bounded on this machine, and how to
// fix it when they are not.
import { useDesk } from '../state/store';

export function LimitsSection() {
  const limits = useDesk((state) => state.settings?.sandbox.limits);
  if (!limits) return null;
  return (
    <fieldset className="settings-group">
      <legend>Task limits</legend>
      {limits.enforced ? (
        <p className="hint">
          {limits.detail} The policy’s <code>limits</code> (<code>memoryMb</code>, <code>pids</code>, <code>cpus</code>) set them,
          for all agents or per agent; by default a task may use half this machine’s memory and 4096 processes, and any CPU.
        </p>
      ) : (
        <div role="alert" className="task-warning">
          <p><strong>{limits.detail}</strong> {limits.reason}</p>
          {limits.fix && <p>{limits.fix}</p>}
        </div>
      )}
    </fieldset>
  );
}
