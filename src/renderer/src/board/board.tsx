// The top bar (desk name, connection, filters, New task, Settings) and the board's six columns.
import { AttentionControls } from '../attention/attention-controls';
import { desk, useDesk } from '../state/store';
import { COLUMNS } from '../state/selectors';
import { Column } from './column';
import { Filters } from './filters';
import { RepoPicker } from './repo-picker';

const SOCKET_LABEL = { idle: 'Connecting…', connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…', closed: 'Offline' } as const;

function ConnectionState() {
  const state = useDesk((s) => s.socketState);
  return <span className={`connection connection-${state}`} title="Updates from the desk">{SOCKET_LABEL[state]}</span>;
}

function DeskName() {
  const settings = useDesk((state) => state.settings);
  // The repository the picker shows, when one is picked; else the desk's default.
  const picked = useDesk((state) => state.repos?.find((repo) => repo.name === state.filters.repo));
  return (
    <div className="desk-name">
      <h1>Assignment Desk</h1>
      {picked && <span className="desk-repo" title={picked.path}>{picked.name} · {picked.baseBranch}</span>}
      {settings && !picked && <span className="desk-repo" title={settings.repository}>{settings.repository.split(/[\\/]/).pop()} · {settings.baseBranch}</span>}
    </div>
  );
}

export function TopBar() {
  return (
    <header className="topbar">
      <DeskName />
      <ConnectionState />
      <RepoPicker />
      <Filters />
      <div className="topbar-actions">
        <AttentionControls />
        <button type="button" className="primary" onClick={() => desk().openDialog({ kind: 'new-task' })}>New task</button>
        <button type="button" onClick={() => desk().openDialog({ kind: 'settings' })}>Settings</button>
      </div>
    </header>
  );
}

export function Board() {
  return (
    <main className="board" aria-label="Board">
      {COLUMNS.map((column) => <Column key={column.id} id={column.id} title={column.title} collapsible={column.id === 'stopped'} />)}
    </main>
  );
}
