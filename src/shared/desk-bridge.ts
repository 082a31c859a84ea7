// What the preload exposes as `window.desk`: native extras only (domain traffic goes over HTTP), the IPC
// channels behind them, and the stub a browser gets, so the renderer never needs to know where it runs.
// No imports: the sandboxed preload bundles this file and may load nothing but electron.

/** The outcome of a native action; `reason` is a sentence a person can read. */
export type NativeResult = { ok: true } | { ok: false; reason: string };

export interface DeskBridge {
  readonly runtime: 'electron' | 'browser';
  /** Asks the person for a folder (the native dialog); resolves with its path, or null when they cancel. */
  pickRepository(): Promise<string | null>;
  /** Shows a worktree (or a file in it) in the file manager. Only paths inside the repository or the desk's worktrees. */
  revealPath(path: string): Promise<NativeResult>;
  /** Opens a file of a worktree in the person's editor (ASSIGNMENT_DESK_EDITOR, else the system's app for it). */
  openInEditor(path: string): Promise<NativeResult>;
  /** Called when the person clicks a desk notification about a task; returns the function that stops listening. */
  onFocusTask(listener: (taskId: string) => void): () => void;
}

/** One channel per function; main registers exactly these and nothing forwards arbitrary channel names. */
export const DESK_CHANNELS = {
  pickRepository: 'desk:pick-repository',
  revealPath: 'desk:reveal-path',
  openInEditor: 'desk:open-in-editor',
  focusTask: 'desk:focus-task',
} as const;

const unsupported: NativeResult = { ok: false, reason: 'Only the desktop app can do this.' };

/** What a browser gets instead of the preload's bridge: every extra degrades to a no-op. */
export const browserDeskBridge = {
  runtime: 'browser',
  pickRepository: async () => null,
  revealPath: async () => unsupported,
  openInEditor: async () => unsupported,
  onFocusTask: () => () => undefined,
} satisfies DeskBridge;

/** The bridge of this page: the preload's in the desktop app, the browser stub anywhere else. */
export function deskBridge(scope: { desk?: DeskBridge } = globalThis as { desk?: DeskBridge }): DeskBridge {
  return scope.desk ?? browserDeskBridge;
}
