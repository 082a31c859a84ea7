// The page: the token form until the desk accepts a token, then the board, the open task, dialogs and notices.
import { lazy, Suspense, useEffect, useState } from 'react';
import { deskBridge } from '../../shared/desk-bridge';
import { useAttention } from './attention/use-attention';
import { useShortcuts } from './attention/use-shortcuts';
import { createDeskApi, type Connection } from './api/desk-api';
import { Board, TopBar } from './board/board';
import { BulkBar } from './board/bulk-bar';
import { DiskFullBanner } from './board/disk-full-banner';
import { Dialogs } from './board/dialogs';
import { fragmentParams, readConnection, rememberConnection, withFragmentParam } from './connection';
import { desk, deskStore, useDesk } from './state/store';
import { TokenForm } from './token-form';
import { Notices } from './ui/notices';

// The task view brings xterm, Markdown, jsdiff and highlight.js: loaded when a task is first opened.
const TaskView = lazy(() => import('./task/task-view').then((module) => ({ default: module.TaskView })));

function start(connection: Connection): void {
  desk().disconnectEvents();
  void desk().start(createDeskApi(connection)).then(() => void desk().loadSettings());
}

/** Keeps `#task=<id>` and the open task in step, both ways, without losing the other fragment parameters. */
function useTaskRoute(): void {
  useEffect(() => {
    const fromHash = () => desk().openTask(fragmentParams(window.location.hash).get('task') ?? undefined);
    fromHash();
    window.addEventListener('hashchange', fromHash);
    const unsubscribe = deskStore.subscribe((state, previous) => {
      if (state.openTaskId === previous.openTaskId) return;
      const hash = withFragmentParam(window.location.hash, 'task', state.openTaskId);
      if (hash !== window.location.hash) history.replaceState(null, '', hash || window.location.pathname);
    });
    const stopFocus = deskBridge().onFocusTask((taskId) => desk().openTask(taskId));
    return () => {
      window.removeEventListener('hashchange', fromHash);
      unsubscribe();
      stopFocus();
    };
  }, []);
}

function Desk() {
  const openTaskId = useDesk((state) => state.openTaskId);
  const loadState = useDesk((state) => state.loadState);
  const loadError = useDesk((state) => state.loadError);
  useTaskRoute();
  useAttention();
  useShortcuts();
  return (
    <div className={`app${openTaskId ? ' app-with-task' : ''}`}>
      <TopBar />
      <BulkBar />
      <DiskFullBanner />
      {loadState === 'failed' && <p className="load-problem">Cannot load the tasks: {loadError}</p>}
      <div className="workspace">
        <Board />
        {openTaskId && <Suspense fallback={null}><TaskView key={openTaskId} taskId={openTaskId} /></Suspense>}
      </div>
      <Dialogs />
      <Notices />
    </div>
  );
}

export function App() {
  const [connection, setConnection] = useState(() => readConnection(window.location, sessionStorage));
  const loadState = useDesk((state) => state.loadState);
  const loadError = useDesk((state) => state.loadError);

  useEffect(() => {
    if (connection) start(connection);
    return () => desk().disconnectEvents();
  }, [connection]);

  if (!connection || loadState === 'unauthorized') {
    return (
      <TokenForm
        endpoint={connection?.endpoint ?? (/^https?:/.test(window.location.origin) ? window.location.origin : '')}
        problem={loadState === 'unauthorized' ? loadError : undefined}
        onConnect={(next) => {
          rememberConnection(next, sessionStorage);
          setConnection(next);
        }}
      />
    );
  }
  return <Desk />;
}
