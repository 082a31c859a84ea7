// "Repositories" in Settings: each open repository, its endpoint, and how its worktrees are set up. A repository's own
// `.desk/config.json` wins and is shown as it is (read-only); without one, the setup given here is used.
import { useEffect, useId, useState } from 'react';
import type { RepoInfo } from '../../../shared/repos';
import { desk, useDesk } from '../state/store';

const SOURCE_LABEL = {
  file: 'from the repository’s .desk/config.json (it wins over these settings)',
  settings: 'from these settings (the repository has no .desk/config.json)',
  none: 'none yet',
} as const;

function RepoSetup({ repo }: { repo: RepoInfo }) {
  const [setup, setSetup] = useState('');
  const [cleanup, setCleanup] = useState('');
  const [check, setCheck] = useState('');
  const [copy, setCopy] = useState('');
  const [prepare, setPrepare] = useState('');
  const [prepareWhen, setPrepareWhen] = useState('');
  const [devCommand, setDevCommand] = useState('');
  const [devPortEnv, setDevPortEnv] = useState('');
  const [error, setError] = useState<string>();
  const ids = { setup: useId(), check: useId(), cleanup: useId(), copy: useId(), prepare: useId(), prepareWhen: useId(), devCommand: useId(), devPortEnv: useId() };
  const { settings } = repo.setup;

  useEffect(() => {
    setSetup(settings?.setup ?? '');
    setCleanup(settings?.cleanup ?? '');
    setCheck(settings?.check ?? '');
    setCopy((settings?.copy ?? []).join('\n'));
    setPrepare(settings?.prepare ?? '');
    setPrepareWhen((settings?.prepareWhen ?? []).join('\n'));
    setDevCommand(settings?.devServer?.command ?? '');
    setDevPortEnv(settings?.devServer?.portEnv ?? '');
  }, [settings]);

  const save = async () => {
    const lines = (text: string) => text.split('\n').map((line) => line.trim()).filter((line) => line !== '');
    const globs = lines(copy);
    const when = lines(prepareWhen);
    setError(await desk().saveRepoSetup(repo.name, {
      ...(setup.trim() && { setup: setup.trim() }), ...(check.trim() && { check: check.trim() }),
      ...(cleanup.trim() && { cleanup: cleanup.trim() }), copy: globs,
      ...(prepare.trim() && { prepare: prepare.trim() }), ...(when.length > 0 && { prepareWhen: when }),
      ...(devCommand.trim() && { devServer: { command: devCommand.trim(), portEnv: devPortEnv.trim() || 'PORT' } }),
    }));
  };

  return (
    <section className="repo-setup" aria-label={`Repository ${repo.name}`}>
      <h3>{repo.name}{repo.isDefault ? ' (default)' : ''}</h3>
      <dl className="facts">
        <dt>Folder</dt><dd><code>{repo.path}</code></dd>
        <dt>Endpoint</dt><dd><code>{repo.endpoint === '/' ? `/ and /r/${repo.name}/` : repo.endpoint}</code></dd>
        <dt>Base branch</dt><dd><code>{repo.baseBranch}</code></dd>
        <dt>Setup</dt><dd>{SOURCE_LABEL[repo.setup.source]}</dd>
      </dl>
      {repo.setup.source === 'file' ? (
        <pre className="repo-config" aria-label={`The .desk/config.json of ${repo.name}`}>{JSON.stringify(repo.setup.config, null, 2)}</pre>
      ) : (
        <>
          <label htmlFor={ids.setup}>Setup command</label>
          <input id={ids.setup} className="code-input" type="text" value={setup} placeholder="npm ci" onChange={(event) => setSetup(event.target.value)} />
          <label htmlFor={ids.check}>Check command (run on each turn’s work, e.g. the tests)</label>
          <input id={ids.check} className="code-input" type="text" value={check} placeholder="npm test" onChange={(event) => setCheck(event.target.value)} />
          <label htmlFor={ids.cleanup}>Cleanup command</label>
          <input id={ids.cleanup} className="code-input" type="text" value={cleanup} onChange={(event) => setCleanup(event.target.value)} />
          <label htmlFor={ids.copy}>Copy into each worktree (one glob a line)</label>
          <textarea id={ids.copy} className="code-input" rows={2} value={copy} placeholder=".env" onChange={(event) => setCopy(event.target.value)} />
          <label htmlFor={ids.prepare}>Prepare command (run once per base commit, shared by its tasks)</label>
          <input id={ids.prepare} className="code-input" type="text" value={prepare} placeholder="npm ci" onChange={(event) => setPrepare(event.target.value)} />
          <label htmlFor={ids.prepareWhen}>Prepare again when these change (one glob a line; empty: every time)</label>
          <textarea id={ids.prepareWhen} className="code-input" rows={1} value={prepareWhen} placeholder="package-lock.json" onChange={(event) => setPrepareWhen(event.target.value)} />
          <label htmlFor={ids.devCommand}>Dev server command (started from a task’s panel)</label>
          <input id={ids.devCommand} className="code-input" type="text" value={devCommand} placeholder="npm run dev" onChange={(event) => setDevCommand(event.target.value)} />
          <label htmlFor={ids.devPortEnv}>Variable that carries its port</label>
          <input id={ids.devPortEnv} className="code-input" type="text" value={devPortEnv} placeholder="PORT" onChange={(event) => setDevPortEnv(event.target.value)} />
          {error && <p role="alert" className="form-error">{error}</p>}
          <div className="dialog-actions">
            <button type="button" onClick={() => void save()}>Save setup of {repo.name}</button>
          </div>
        </>
      )}
    </section>
  );
}

export function ReposSection() {
  const repos = useDesk((state) => state.repos);
  useEffect(() => void desk().loadRepos(), []);
  if (!repos) return null;
  return (
    <fieldset className="settings-group">
      <legend>Repositories</legend>
      <p className="hint">
        How each new worktree is made ready: files to copy from your checkout, then a setup command run inside the task’s
        sandbox. A repository’s own <code>.desk/config.json</code> wins over what is set here.
      </p>
      {repos.map((repo) => <RepoSetup key={repo.name} repo={repo} />)}
    </fieldset>
  );
}
