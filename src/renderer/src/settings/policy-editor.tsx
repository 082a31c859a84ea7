// The governance policy as JSON: edit, save, and read the server's validation message when it refuses.
import { useEffect, useId, useState } from 'react';
import { desk, useDesk } from '../state/store';

export function PolicyEditor() {
  const view = useDesk((state) => state.policy);
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const id = useId();

  useEffect(() => {
    if (view) setText(JSON.stringify(view.policy, null, 2));
  }, [view]);

  const save = async () => {
    setSaving(true);
    setError(await desk().savePolicy(text));
    setSaving(false);
  };

  return (
    <fieldset className="settings-group">
      <legend>Governance policy</legend>
      <p className="hint">
        What agents may do without asking: each capability is allow, ask or deny.
        {view && view.agentsWithTokens.length > 0 && ` Agents with their own token: ${view.agentsWithTokens.join(', ')}.`}
      </p>
      <label htmlFor={id}>Policy</label>
      <textarea id={id} className="code-input" rows={12} spellCheck={false} value={text} onChange={(event) => setText(event.target.value)} />
      {error && <p role="alert" className="form-error">{error}</p>}
      <div className="dialog-actions">
        <button type="button" onClick={() => void save()} disabled={saving || !view}>Save policy</button>
      </div>
    </fieldset>
  );
}
