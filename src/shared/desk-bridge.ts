// What the preload exposes as `window.desk`; a browser build has none of it and degrades gracefully.

export interface DeskBridge {
  readonly runtime: 'electron';
}
