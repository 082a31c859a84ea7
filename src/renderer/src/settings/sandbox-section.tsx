// "Agent sandbox" in Settings: whether agents run confined on this machine, and how to fix it when not.
import { useDesk } from '../state/store';

export function SandboxSection() {
  const sandbox = useDesk((state) => state.settings?.sandbox);
  if (!sandbox) return null;
  return (
    <fieldset className="settings-group">
      <legend>Agent sandbox</legend>
      {sandbox.available ? (
        <p className="hint">
          Agents run in {sandbox.version ?? 'bubblewrap'}: they write only to their task’s worktree, its temp dir (their own
          <code>/tmp</code>) and their own state dirs, see of your home only the toolchains they run from, cannot read this
          desk’s data or your credentials, and reach only the hosts their policy allows. The policy’s <code>sandbox</code>,{' '}
          <code>network</code>, <code>hiddenPaths</code> and <code>readablePaths</code> settings change that per agent.
        </p>
      ) : (
        <div role="alert" className="task-warning">
          <p><strong>Agents run unsandboxed.</strong> {sandbox.reason}</p>
          {sandbox.fix && <p>{sandbox.fix}</p>}
          <p>Set <code>"sandbox": "required"</code> in the policy to refuse to start agents until this is fixed.</p>
        </div>
      )}
    </fieldset>
  );
}
