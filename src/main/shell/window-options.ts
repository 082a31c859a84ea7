// The board window's options: Electron's security checklist in one place, testable without Electron. Pure.
import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';
import type { WindowBounds } from './window-state';

export interface BoardWindowInput {
  preloadPath: string;
  bounds: WindowBounds;
  /** Developer tools in a build from source only. */
  devTools: boolean;
  /** The window icon (Linux and Windows show it; macOS uses the bundle's). */
  iconPath?: string;
}

export const MIN_WIDTH = 720;
export const MIN_HEIGHT = 480;

/** The renderer is a web page: no Node, its own JS world, Chromium's sandbox, web security on. */
export function boardWebPreferences(preloadPath: string, devTools: boolean): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    safeDialogs: true,
    devTools,
  };
}

export function boardWindowOptions(input: BoardWindowInput): BrowserWindowConstructorOptions {
  const { x, y, width, height } = input.bounds;
  return {
    ...(x !== undefined && y !== undefined && { x, y }),
    width,
    height,
    minWidth: MIN_WIDTH,
    minHeight: MIN_HEIGHT,
    title: 'Assignment Desk',
    // Shown once the board has painted, so the person never sees a blank white frame.
    show: false,
    backgroundColor: '#111827',
    ...(input.iconPath !== undefined && { icon: input.iconPath }),
    webPreferences: boardWebPreferences(input.preloadPath, input.devTools),
  };
}
