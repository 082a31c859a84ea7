// The row an agent's login request becomes: each login method it offers, with the one action that works for it.
import type { LoginHelp } from '../../../../shared/agents';
import { desk } from '../../state/store';

export function LoginHelpRow({ help }: { help: LoginHelp }) {
  return (
    <section className="login-help" aria-label={`${help.agentName} needs a login`}>
      <h4>{help.agentName} needs a login</h4>
      {help.agentMessage && <p className="quiet-line">The agent said: {help.agentMessage}</p>}
      {help.methods.length === 0
        ? <p>It names no login method: log in with the agent&apos;s own command outside the desk, or pass its API key through its envAllowlist.</p>
        : (
          <ul>
            {help.methods.map((method) => (
              <li key={method.id}>
                <strong>{method.name}</strong>{method.description && <span className="quiet-line"> — {method.description}</span>}
                <div className="login-hint">{method.action.kind === 'terminal-login' ? 'Log in from the desk: ' : 'To use it: '}{method.hint}</div>
                {method.action.kind === 'terminal-login' && (
                  // Settings holds the login terminal, where the person answers it; the agent's row has Log in.
                  <button type="button" className="small" onClick={() => desk().openDialog({ kind: 'settings' })}>Open Settings to log in</button>
                )}
              </li>
            ))}
          </ul>
        )}
    </section>
  );
}
