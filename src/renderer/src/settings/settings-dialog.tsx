// "Settings": how to connect other programs, the repository (read-only), default agent, concurrency, each repository's
// worktree setup, the sandbox, policy and the "Always allow" answers given in tasks.
import { useEffect, useId, useState } from 'react';
import { desk, useDesk } from '../state/store';
import { Dialog } from '../ui/dialog';
import { AgentsSection } from './agents-section';
import { AlwaysAllowSection } from './always-allow-section';
import { ConnectionSection } from './connection-section';
import { PolicyEditor } from './policy-editor';
import { PushSection } from './push-section';
import { ReposSection } from './repos-section';
import { SandboxSection } from './sandbox-section';
import { LimitsSection } from './limits-section';
import { SandboxViewSection } from './sandbox-view-section';
import { RunnersSection } from './runners-section';
import { DiskUseFacts } from './disk-use-facts';
import '../styles/settings.css';

function DeskSection() {
  const settings = useDesk((state) => state.settings);
  const agents = useDesk((state) => state.agents);
  const [agent, setAgent] = useState('');
  const [concurrency, setConcurrency] = useState('');
  const [quietAfter, setQuietAfter] = useState('');
  const [error, setError] = useState<string>();
  const ids = { agent: useId(), concurrency: useId(), quiet: useId() };

  useEffect(() => {
    if (!settings) return;
    setAgent(settings.defaultAgent);
    setConcurrency(String(settings.concurrency));
    setQuietAfter(String(settings.quietAfterSeconds));
  }, [settings]);

  if (!settings) return <p className="hint">Loading the settings…</p>;
  const save = async () => setError(await desk().saveSettings({ defaultAgent: agent, concurrency: Number(concurrency), quietAfterSeconds: Number(quietAfter) }));

  return (
    <fieldset className="settings-group">
      <legend>This desk</legend>
      <dl className="facts">
        <dt>Repository</dt><dd><code>{settings.repository}</code></dd>
        <dt>Base branch</dt><dd><code>{settings.baseBranch}</code></dd>
        <dt>Data</dt><dd><code>{settings.dataDir}</code></dd>
        <DiskUseFacts />
      </dl>
      <div className="form-row">
        <div className="form-field">
          <label htmlFor={ids.agent}>Default agent</label>
          <select id={ids.agent} value={agent} onChange={(event) => setAgent(event.target.value)}>
            {agents?.agents.map((option) => (
              <option key={option.id} value={option.id}>
                {option.name} — {option.available ? 'installed' : 'not installed'}
              </option>
            ))}
          </select>
        </div>
        <div className="form-field narrow">
          <label htmlFor={ids.concurrency}>Concurrency</label>
          <input id={ids.concurrency} type="number" min={1} max={64} value={concurrency} onChange={(event) => setConcurrency(event.target.value)} />
        </div>
        <div className="form-field narrow">
          <label htmlFor={ids.quiet} title="A turn without a word from the agent for this long shows on its card">Quiet after (s)</label>
          <input id={ids.quiet} type="number" min={1} max={86400} value={quietAfter} onChange={(event) => setQuietAfter(event.target.value)} />
        </div>
      </div>
      {error && <p role="alert" className="form-error">{error}</p>}
      <div className="dialog-actions">
        <button type="button" onClick={() => void save()}>Save settings</button>
      </div>
    </fieldset>
  );
}

export function SettingsDialog() {
  const error = useDesk((state) => state.settingsError);
  useEffect(() => void desk().loadSettings(), []);
  return (
    <Dialog title="Settings" onClose={() => desk().closeDialog()} size="wide">
      <div className="settings">
        {error && <p className="form-error">{error}</p>}
        <ConnectionSection />
        <DeskSection />
        <PushSection />
        <ReposSection />
        <AgentsSection />
        <SandboxSection />
        <LimitsSection />
        <SandboxViewSection />
        <RunnersSection />
        <PolicyEditor />
        <AlwaysAllowSection />
        <p className="hint">Light and dark follow your system’s appearance.</p>
      </div>
      <div className="dialog-actions">
        <button type="button" onClick={() => desk().closeDialog()}>Close</button>
      </div>
    </Dialog>
  );
}
