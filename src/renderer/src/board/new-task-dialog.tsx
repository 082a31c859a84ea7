// "New task": prompt, optional id (generated when left empty), repository (when several), agent (or several attempts),
// and the tasks it waits for.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { messageOf } from '../api/api-error';
import { desk, useDesk } from '../state/store';
import { Dialog } from '../ui/dialog';
import { DependencyCombobox } from './dependency-combobox';
import { AttemptsPicker, attemptsOf, type AttemptsChoice } from './attempts-picker';
import { MIN_ATTEMPTS } from '../../../shared/task';
import { generateTaskId } from './task-id';

export function NewTaskDialog() {
  const agents = useDesk((state) => state.agents);
  const repos = useDesk((state) => state.repos);
  // A new task goes to the repository the board shows, else to the default.
  const [repo, setRepo] = useState(useDesk((state) => state.filters.repo ?? ''));
  const [prompt, setPrompt] = useState('');
  const [taskId, setTaskId] = useState('');
  const [agent, setAgent] = useState('');
  const [waitsFor, setWaitsFor] = useState<string[]>([]);
  const [several, setSeveral] = useState<AttemptsChoice>({ runs: {}, choose: '' });
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const ids = { prompt: useId(), id: useId(), agent: useId(), repo: useId() };
  const close = () => desk().closeDialog();

  useEffect(() => void desk().loadAgents(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!prompt.trim()) {
      setError('Write a prompt for the agent.');
      return;
    }
    const attempts = attemptsOf(several.runs);
    if (attempts && attempts.length < MIN_ATTEMPTS) {
      setError(`Pick at least ${MIN_ATTEMPTS} runs for several attempts, or none for one run.`);
      return;
    }
    setBusy(true);
    try {
      await desk().createTask({
        id: taskId.trim() || generateTaskId(), prompt, dependencies: waitsFor, ...(agent && { agent }), ...(repo && { repo }),
        ...(attempts && { attempts, ...(several.choose && { choose: several.choose }), ...(several.judge && { judge: several.judge }) }),
      });
      close();
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  };

  return (
    <Dialog title="New task" onClose={close}>
      <form className="form" onSubmit={submit}>
        <label htmlFor={ids.prompt}>Prompt</label>
        <textarea id={ids.prompt} rows={6} value={prompt} onChange={(event) => setPrompt(event.target.value)} required data-autofocus />
        <div className="form-row">
          <div className="form-field">
            <label htmlFor={ids.id}>Task id</label>
            <input id={ids.id} type="text" value={taskId} placeholder="generated when empty" onChange={(event) => setTaskId(event.target.value)} />
          </div>
          {repos && repos.length > 1 && (
            <div className="form-field">
              <label htmlFor={ids.repo}>Repository</label>
              <select id={ids.repo} value={repo} onChange={(event) => setRepo(event.target.value)}>
                <option value="">Default ({repos[0]?.name})</option>
                {repos.map((option) => <option key={option.name} value={option.name}>{option.name}</option>)}
              </select>
            </div>
          )}
          <div className="form-field">
            <label htmlFor={ids.agent}>Agent</label>
            <select id={ids.agent} value={agent} onChange={(event) => setAgent(event.target.value)}>
              <option value="">Default{agents ? ` (${agents.defaultAgent})` : ''}</option>
              {agents?.agents.map((option) => (
                <option key={option.id} value={option.id} disabled={!option.available}>
                  {option.name}{option.available ? '' : ` — ${option.reason ?? 'not available'}`}
                </option>
              ))}
            </select>
          </div>
        </div>
        {agents && <AttemptsPicker agents={agents.agents} value={several} onChange={setSeveral} />}
        <DependencyCombobox taskId={taskId.trim() || undefined} value={waitsFor} onChange={setWaitsFor} multiple label="Waits for" />
        <p className="hint">The task starts once every task it waits for has completed.</p>
        {error && <p role="alert" className="form-error">{error}</p>}
        <div className="dialog-actions">
          <button type="button" onClick={close}>Close</button>
          <button type="submit" className="primary" disabled={busy}>Create task</button>
        </div>
      </form>
    </Dialog>
  );
}
