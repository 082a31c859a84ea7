// "What agents see" in Settings: for the agent picked, each place of its sandbox readable, writable or hidden, and
// why, as the desk lays it out (the policy's hiddenPaths and readablePaths included). Read when an agent is picked.
import { useEffect, useId, useState } from 'react';
import type { AgentSandboxView } from '../../../shared/sandbox-view';
import { useDesk } from '../state/store';

export function SandboxViewSection() {
  const api = useDesk((state) => state.api);
  const agents = useDesk((state) => state.agents);
  // The view follows the policy: saving it shows the change here.
  const policy = useDesk((state) => state.policy);
  const defaultAgent = useDesk((state) => state.settings?.defaultAgent);
  const [picked, setPicked] = useState<string>();
  const [view, setView] = useState<AgentSandboxView>();
  const [error, setError] = useState<string>();
  const pickerId = useId();
  const agentId = picked ?? defaultAgent ?? agents?.agents[0]?.id;

  useEffect(() => {
    if (!api || agentId === undefined) return;
    let live = true;
    api.sandboxView(agentId).then(
      (answer) => { if (live) { setView(answer); setError(undefined); } },
      (failure: unknown) => { if (live) { setView(undefined); setError(failure instanceof Error ? failure.message : String(failure)); } },
    );
    return () => { live = false; };
  }, [api, agentId, policy]);

  if (!agents || agentId === undefined) return null;
  return (
    <fieldset className="settings-group">
      <legend>What agents see</legend>
      <div className="form-field">
        <label htmlFor={pickerId}>Agent</label>
        <select id={pickerId} value={agentId} onChange={(event) => setPicked(event.target.value)}>
          {agents.agents.map((agent) => <option key={agent.id} value={agent.id}>{agent.name}</option>)}
        </select>
      </div>
      {error && <p role="alert" className="form-error">{error}</p>}
      {view && <p className={view.confined ? 'hint' : 'task-warning'}>{view.note}</p>}
      {view && view.entries.length > 0 && (
        <table aria-label={`What ${agentId} sees`} className="sandbox-view">
          <thead><tr><th scope="col">Place</th><th scope="col">Access</th><th scope="col">Why</th></tr></thead>
          <tbody>
            {view.entries.map((entry) => (
              <tr key={`${entry.access}:${entry.path}`} className={`view-${entry.access}`}>
                <td><code>{entry.path}</code></td><td>{entry.access}</td><td>{entry.why}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="hint">Lower rows lie over higher ones. The policy’s <code>hiddenPaths</code> hide more, its <code>readablePaths</code> open what is hidden.</p>
    </fieldset>
  );
}
