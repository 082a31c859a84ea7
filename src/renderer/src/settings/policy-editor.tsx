// The governance policy, as a form or as JSON: both edit the same text, which is what Save sends. JSON that does not
// parse shows why and stays as typed; the form opens again once it parses.
import { useEffect, useId, useState } from 'react';
import { desk, useDesk } from '../state/store';
import { PolicyForm } from './policy-form';
import { formatPolicy, parsePolicy } from './policy-model';

export function PolicyEditor() {
  const view = useDesk((state) => state.policy);
  const [text, setText] = useState('');
  const [mode, setMode] = useState<'form' | 'json'>('form');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const id = useId();

  useEffect(() => {
    if (view) setText(formatPolicy(view.policy));
  }, [view]);

  const parsed = parsePolicy(text);
  const showForm = () => {
    if (parsed.ok) {
      setMode('form');
      setError(undefined);
    } else {
      setError(`Fix the JSON before the form can show it. ${parsed.error}`);
    }
  };
  const save = async () => {
    setSaving(true);
    setError(await desk().savePolicy(text));
    setSaving(false);
  };

  return (
    <fieldset className="settings-group">
      <legend>Governance policy</legend>
      <p className="hint">
        What agents may do without asking: each capability is allow, ask or deny. The form sets the defaults every agent
        gets; the JSON view shows everything, per-agent overrides included.
        {view && view.agentsWithTokens.length > 0 && ` Agents with their own token: ${view.agentsWithTokens.join(', ')}.`}
      </p>
      <div className="segmented" role="group" aria-label="Policy view">
        <button type="button" aria-pressed={mode === 'form'} onClick={showForm} disabled={!view}>Form</button>
        <button type="button" aria-pressed={mode === 'json'} onClick={() => setMode('json')} disabled={!view}>JSON</button>
      </div>
      {mode === 'form' && parsed.ok && view && <PolicyForm value={parsed.value} onChange={(next) => setText(formatPolicy(next))} />}
      {mode === 'json' && (
        <>
          <label htmlFor={id}>Policy (JSON)</label>
          <textarea id={id} className="code-input" rows={14} spellCheck={false} value={text} onChange={(event) => setText(event.target.value)} />
          {!parsed.ok && <p className="form-error">{parsed.error}</p>}
        </>
      )}
      {error && <p role="alert" className="form-error">{error}</p>}
      <div className="dialog-actions">
        <button type="button" onClick={() => void save()} disabled={saving || !view || !parsed.ok}>Save policy</button>
      </div>
    </fieldset>
  );
}
