// "Always allow" answers people gave in tasks: each approves its kind of request for the rest of its task only; the
// person may make one a rule of the policy, for every task.
import { useState } from 'react';
import type { AlwaysAllowAnswer } from '../../../shared/always-allow';
import type { Capability } from '../../../shared/governance';
import { desk, useDesk } from '../state/store';

export function AlwaysAllowSection() {
  const answers = useDesk((state) => state.alwaysAllow);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const makeRule = async (answer: AlwaysAllowAnswer) => {
    setBusy(true);
    setError(await desk().makeAlwaysAllowRule(answer.agent, answer.capability as Capability));
    setBusy(false);
  };

  return (
    <fieldset className="settings-group">
      <legend>Always-allow answers given in tasks</legend>
      <p className="hint">
        When you answer “Always allow”, the desk approves that kind of request from that agent for the rest of that task
        only (the agent itself is told “allow once”). Make it a rule to allow it in every task.
      </p>
      {answers === undefined || answers.length === 0
        ? <p className="hint">None yet.</p>
        : (
          <ul className="always-allow-list" aria-label="Always-allow answers">
            {answers.map((answer) => (
              <li key={`${answer.taskId}/${answer.agent}/${answer.capability}`}>
                <span><strong>{answer.capability}</strong> for {answer.agent} in task <code>{answer.taskId}</code></span>
                {answer.isRule
                  ? <span className="hint">Allowed by the policy</span>
                  : (
                    <button type="button" disabled={busy} onClick={() => void makeRule(answer)}
                      aria-label={`Make it a rule: allow ${answer.capability} for ${answer.agent}`}>
                      Make it a rule
                    </button>
                  )}
              </li>
            ))}
          </ul>
        )}
      {error && <p role="alert" className="form-error">{error}</p>}
    </fieldset>
  );
}
