// "Add repository": the path of a git repository on the desk's machine and, optionally, the name it goes by.
import { useId, useState, type FormEvent } from 'react';
import { deskBridge } from '../../../shared/desk-bridge';
import { desk } from '../state/store';
import { Dialog } from '../ui/dialog';

export function AddRepoDialog() {
  const [path, setPath] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const ids = { path: useId(), name: useId() };
  const close = () => desk().closeDialog();
  // The desktop app can ask for the folder with the system's dialog; a browser types the path.
  const bridge = deskBridge();
  const choose = async () => {
    const picked = await bridge.pickRepository();
    if (picked) setPath(picked);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!path.trim()) {
      setError('Give the path of a git repository on the desk\'s machine.');
      return;
    }
    setBusy(true);
    const problem = await desk().addRepo(path.trim(), name.trim() || undefined);
    if (problem) {
      setError(problem);
      setBusy(false);
      return;
    }
    close();
  };

  return (
    <Dialog title="Add repository" onClose={close} size="small">
      <form className="form" onSubmit={submit}>
        <label htmlFor={ids.path}>Path</label>
        <div className="add-repo-path">
          <input id={ids.path} type="text" value={path} placeholder="/home/you/src/project" onChange={(event) => setPath(event.target.value)} data-autofocus />
          {bridge.runtime === 'electron' && <button type="button" onClick={() => void choose()}>Choose folder…</button>}
        </div>
        <label htmlFor={ids.name}>Name</label>
        <input id={ids.name} type="text" value={name} placeholder="the folder's name when empty" onChange={(event) => setName(event.target.value)} />
        <p className="hint">Clients reach it at /r/&lt;name&gt;/. The desk opens it again at every start until you remove it.</p>
        {error && <p role="alert" className="form-error">{error}</p>}
        <div className="dialog-actions">
          <button type="button" onClick={close}>Close</button>
          <button type="submit" className="primary" disabled={busy}>Add repository</button>
        </div>
      </form>
    </Dialog>
  );
}
