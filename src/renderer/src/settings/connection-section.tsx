// Where other programs reach this desk: the endpoint and token to paste into Prompt Pad, copyable.
import { useId, useState } from 'react';
import { desk, useDesk } from '../state/store';

async function copy(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    desk().showStatus(`${what} copied.`);
  } catch {
    desk().showAlert(`Could not copy the ${what.toLowerCase()}; select it and copy it by hand.`);
  }
}

export function ConnectionSection() {
  const connection = useDesk((state) => state.api?.connection);
  const [shown, setShown] = useState(false);
  const ids = { endpoint: useId(), token: useId() };
  if (!connection) return null;
  return (
    <fieldset className="settings-group">
      <legend>Connect other programs</legend>
      <p className="hint">In Prompt Pad’s Agent Assignment settings, paste this endpoint and token.</p>
      <label htmlFor={ids.endpoint}>Endpoint</label>
      <div className="input-row">
        <input id={ids.endpoint} type="text" readOnly value={connection.endpoint} />
        <button type="button" onClick={() => void copy(connection.endpoint, 'Endpoint')}>Copy endpoint</button>
      </div>
      <label htmlFor={ids.token}>Token</label>
      <div className="input-row">
        <input id={ids.token} type={shown ? 'text' : 'password'} readOnly value={connection.token} autoComplete="off" />
        <button type="button" aria-pressed={shown} onClick={() => setShown(!shown)}>Show token</button>
        <button type="button" onClick={() => void copy(connection.token, 'Token')}>Copy token</button>
      </div>
    </fieldset>
  );
}
