// The board window: the core's /ui/ page in a sandboxed window that opens where it was last closed.
import { BrowserWindow, screen } from 'electron';
import type { SettingsStore } from '../shell/desktop-settings';
import { boardWindowOptions } from '../shell/window-options';
import { restoreWindow } from '../shell/window-state';

export interface BoardWindowOptions {
  preloadPath: string;
  iconPath?: string;
  devTools: boolean;
  settings: SettingsStore;
}

export function createBoardWindow(options: BoardWindowOptions): BrowserWindow {
  const { bounds, maximized } = restoreWindow(
    options.settings.read().window,
    screen.getAllDisplays().map((display) => display.workArea),
    screen.getPrimaryDisplay().workArea,
  );
  const window = new BrowserWindow(boardWindowOptions({
    preloadPath: options.preloadPath, bounds, devTools: options.devTools,
    ...(options.iconPath !== undefined && { iconPath: options.iconPath }),
  }));
  window.once('ready-to-show', () => {
    if (maximized) window.maximize();
    window.show();
  });
  rememberBounds(window, options.settings);
  return window;
}

/** Loads the board; the token is in the fragment, so it never reaches a server log. */
export async function showBoard(window: BrowserWindow, url: string): Promise<void> {
  await window.loadURL(url);
}

/** Brings the window to the front, restoring it when minimized. */
export function focusWindow(window: BrowserWindow): void {
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

function rememberBounds(window: BrowserWindow, settings: SettingsStore): void {
  let timer: NodeJS.Timeout | undefined;
  const save = () => {
    clearTimeout(timer);
    if (window.isDestroyed() || window.isMinimized() || window.isFullScreen()) return;
    // The normal bounds, also while maximized, so un-maximizing next time lands where the person had it.
    const { x, y, width, height } = window.getNormalBounds();
    settings.update({ window: { x, y, width, height, maximized: window.isMaximized() } });
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(save, 500);
  };
  window.on('resize', later);
  window.on('move', later);
  window.on('maximize', save);
  window.on('unmaximize', save);
  window.on('close', save);
}
