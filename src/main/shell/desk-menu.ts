// What the tray and the app menu offer: where the desk listens, its token, the repository, quit. Pure: the
// Electron adapter turns these entries into menu items and the actions into handlers.

export type DeskMenuAction = 'show-board' | 'copy-endpoint' | 'copy-token' | 'open-repository' | 'quit';

export type DeskMenuEntry =
  | { kind: 'info'; label: string }
  | { kind: 'action'; action: DeskMenuAction; label: string; enabled: boolean }
  | { kind: 'separator' };

export interface DeskMenuState {
  /** `http://127.0.0.1:<port>` once the core listens. */
  endpoint?: string;
  repoPath?: string;
  /** A repository is being opened: actions that need the core wait. */
  busy: boolean;
}

export function deskMenuEntries(state: DeskMenuState): DeskMenuEntry[] {
  const running = state.endpoint !== undefined && !state.busy;
  return [
    { kind: 'info', label: state.endpoint ? `Listening on ${state.endpoint}` : 'Starting…' },
    ...(state.repoPath ? [{ kind: 'info' as const, label: `Repository: ${state.repoPath}` }] : []),
    { kind: 'separator' },
    { kind: 'action', action: 'show-board', label: 'Show Board', enabled: running },
    { kind: 'action', action: 'copy-endpoint', label: 'Copy Endpoint URL', enabled: running },
    { kind: 'action', action: 'copy-token', label: 'Copy Token', enabled: running },
    { kind: 'action', action: 'open-repository', label: 'Open Repository…', enabled: !state.busy },
    { kind: 'separator' },
    { kind: 'action', action: 'quit', label: 'Quit Assignment Desk', enabled: true },
  ];
}
