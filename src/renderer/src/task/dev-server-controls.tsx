// The task's dev server from its panel: Start / Stop, the port while it starts, the link once it answers, and how
// it ended. Its output shows in the Activity stream as the "dev-server" terminal.
import { useEffect } from 'react';
import type { DevServerState } from '../../../shared/dev-server';
import { desk, useDesk } from '../state/store';

/** How soon the state is read again: quickly while the port has not answered yet, slowly to notice an exit. */
const RECHECK_MS: Record<DevServerState['state'], number | undefined> = { starting: 500, running: 3000, exited: undefined };

export function DevServerControls({ taskId }: { taskId: string }) {
  const hasWorktree = useDesk((state) => state.details[taskId]?.worktreePath !== undefined);
  const server = useDesk((state) => state.devServers[taskId]);
  const phase = server?.state;

  useEffect(() => {
    if (!hasWorktree) return undefined;
    const wait = phase === undefined ? 0 : RECHECK_MS[phase];
    if (wait === undefined) return undefined;
    const timer = setTimeout(() => void desk().loadDevServer(taskId), wait);
    return () => clearTimeout(timer);
  }, [taskId, hasWorktree, phase, server]);

  if (!hasWorktree) return null;
  const live = phase === 'starting' || phase === 'running';
  return (
    <div className="dev-server" role="group" aria-label="Dev server">
      {live ? (
        <button type="button" className="small" onClick={() => void desk().stopDevServer(taskId)}>Stop dev server</button>
      ) : (
        <button type="button" className="small" onClick={() => void desk().startDevServer(taskId)}>Start dev server</button>
      )}
      {server && <DevServerNote server={server} />}
    </div>
  );
}

function DevServerNote({ server }: { server: DevServerState }) {
  const confinement = server.unsandboxed ? ' (unsandboxed: this machine has no sandbox)' : '';
  if (server.state === 'running' && server.url) {
    return (
      <span className="dev-server-note">
        Running at <a href={server.url} target="_blank" rel="noreferrer">{server.url}</a>{confinement}
      </span>
    );
  }
  if (server.state === 'starting') return <span className="dev-server-note" role="status">Starting on port {server.port}…{confinement}</span>;
  const how = server.signal ? `stopped (${server.signal})` : `exited with code ${server.exitCode ?? '?'}`;
  return <span className="dev-server-note" role="status">Dev server {how}; its output is in the Activity tab.</span>;
}
