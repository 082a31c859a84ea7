// "After approval" in Settings: whether an approval pushes the base branch or the task's branch to a remote.
import { useEffect, useId, useState } from 'react';
import { desk, useDesk } from '../state/store';

type Target = 'none' | 'base' | 'task';

export function PushSection() {
  const push = useDesk((state) => state.settings?.pushAfterApprove);
  const loaded = useDesk((state) => state.settings !== undefined);
  const [target, setTarget] = useState<Target>('none');
  const [remote, setRemote] = useState('origin');
  const [error, setError] = useState<string>();
  const ids = { target: useId(), remote: useId() };

  useEffect(() => {
    setTarget(push ? push.branch : 'none');
    if (push) setRemote(push.remote);
  }, [push]);

  if (!loaded) return null;
  const save = async () => setError(await desk().saveSettings({ pushAfterApprove: target === 'none' ? null : { remote: remote.trim(), branch: target } }));

  return (
    <fieldset className="settings-group">
      <legend>After approval</legend>
      <div className="form-row">
        <div className="form-field">
          <label htmlFor={ids.target}>Push</label>
          <select id={ids.target} value={target} onChange={(event) => setTarget(event.target.value as Target)}>
            <option value="none">Nothing</option>
            <option value="base">The base branch</option>
            <option value="task">The task’s branch</option>
          </select>
        </div>
        <div className="form-field narrow">
          <label htmlFor={ids.remote}>Remote</label>
          <input id={ids.remote} value={remote} disabled={target === 'none'} onChange={(event) => setRemote(event.target.value)} />
        </div>
      </div>
      <p className="hint">Never forced: a remote that moved on refuses the push, and the task’s card says so. Kept until the desk stops.</p>
      {error && <p role="alert" className="form-error">{error}</p>}
      <div className="dialog-actions">
        <button type="button" onClick={() => void save()}>Save push setting</button>
      </div>
    </fieldset>
  );
}
