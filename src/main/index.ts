// Electron entry: hosts the core with the user's data dir and shows the board in a window. Lifecycle only:
// the decisions are pure functions in ./shell (tested in plain Node), the Electron calls sit in ./electron.
import { keepYoungGenerationSmall, loadOrCreateToken, lockDataDir } from './core/index';
import { app, clipboard, dialog, type BrowserWindow } from 'electron';
import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBoardWindow, focusWindow, showBoard } from './electron/board-window';
import { registerDeskIpc } from './electron/desk-ipc';
import { createDeskMenus, type DeskMenus } from './electron/desk-menus';
import { createDeskNotifier, sendFocusTask } from './electron/desk-notifier';
import { installWebSecurity } from './electron/web-security';
import { boardUrl } from './shell/app-origin';
import type { DeskMenuAction } from './shell/desk-menu';
import { createDeskHost, type DeskHost, type RunningDesk } from './shell/desk-host';
import { createSettingsStore, type SettingsStore } from './shell/desktop-settings';
import { desktopAgentCatalog, desktopNativeBinding } from './shell/desktop-runtime';
import { mergePathLists, needsLoginPath, readLoginShellPath } from './shell/login-path';

const APP_ID = 'io.github.assignment-desk';
const here = dirname(fileURLToPath(import.meta.url));
const iconPath = join(app.getAppPath(), 'resources', 'icon.png');
const devTools = !app.isPackaged;
const log = (message: string): void => {
  process.stderr.write(`${message}\n`);
};

let host: DeskHost | undefined;
let settings: SettingsStore | undefined;
let window: BrowserWindow | undefined;
let menus: DeskMenus | undefined;
let releaseLock: (() => void) | undefined;
let token = '';

// Tests and portable setups point the app at another data dir; Chromium's profile follows it.
if (process.env.ASSIGNMENT_DESK_DATA_DIR) app.setPath('userData', resolve(process.env.ASSIGNMENT_DESK_DATA_DIR));
app.enableSandbox();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => window && focusWindow(window));
  start().catch(async (error: unknown) => {
    dialog.showErrorBox('Assignment Desk cannot start', error instanceof Error ? error.message : String(error));
    await host?.close().catch(() => undefined);
    releaseLock?.();
    app.exit(2);
  });
}

async function start(): Promise<void> {
  keepYoungGenerationSmall();
  installWebSecurity(() => host?.current()?.origin, log);
  await app.whenReady();
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
  const dataDir = app.getPath('userData');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // One desk per data dir: also keeps `npm run serve --data-dir` on the same folder from running the same tasks.
  releaseLock = lockDataDir(dataDir).release;
  if (needsLoginPath(process.platform, process.env, Boolean(process.stdout.isTTY))) {
    process.env.PATH = mergePathLists(process.env.PATH, await readLoginShellPath(process.env));
  }
  settings = createSettingsStore(dataDir, log);
  token = loadOrCreateToken(dataDir).token;
  const nativeBinding = desktopNativeBinding(join(here, '..'));
  host = createDeskHost({
    dataDir, token, settings, appVersion: app.getVersion(), serverName: `Assignment Desk on ${hostname()}`,
    agents: () => desktopAgentCatalog({
      dataDir, mainDir: here, packaged: app.isPackaged, electronPath: process.execPath,
      ...(!app.isPackaged && { deskRoot: app.getAppPath() }), env: process.env, log,
    }),
    ...(nativeBinding !== undefined && { nativeBinding }),
    uiDir: join(here, '../renderer'),
    log,
  });

  const desk = await openFirstRepository(host, settings);
  if (!desk) {
    app.quit();
    return;
  }
  registerDeskIpc({
    appOrigin: () => host?.current()?.origin, boardWindow: () => window,
    // Every repository the desk has open (not only the default), and the worktrees of all of them.
    allowedRoots: () => [...(host?.current()?.core.repos.list().map((repo) => repo.root) ?? []), host?.worktreesRoot].filter((root): root is string => root !== undefined),
    env: process.env, log,
  });
  const notifier = createDeskNotifier({
    windowFocused: () => window?.isFocused() ?? false,
    focusTask: (taskId) => {
      if (!window) return;
      focusWindow(window);
      sendFocusTask((channel, id) => window?.webContents.send(channel, id), taskId);
    },
  });
  host.subscribe(notifier.listener);
  menus = createDeskMenus(iconPath, (action) => void runMenuAction(action, notifier.reset), devTools);
  menus.update({ endpoint: desk.origin, repoPath: desk.repoRoot, busy: false });
  await openWindow(desk);
}

async function openWindow(desk: RunningDesk): Promise<void> {
  if (!settings) return;
  const opened = createBoardWindow({ preloadPath: join(here, '../preload/index.cjs'), iconPath, devTools, settings });
  window = opened;
  opened.on('closed', () => {
    if (window === opened) window = undefined;
  });
  await showBoard(opened, boardUrl(desk.origin, token));
}

/** The repository from ASSIGNMENT_DESK_REPO, the last one used, or (from a checkout) the launch folder; else ask. */
async function openFirstRepository(deskHost: DeskHost, settings: SettingsStore): Promise<RunningDesk | undefined> {
  let candidate = process.env.ASSIGNMENT_DESK_REPO ?? settings.read().repoPath ?? (app.isPackaged ? undefined : process.cwd());
  for (;;) {
    candidate ??= await pickFolder();
    if (candidate === undefined) return undefined;
    try {
      return await deskHost.open(candidate);
    } catch (error) {
      if (!(await offerAnotherFolder(candidate, error))) return undefined;
      candidate = undefined;
    }
  }
}

async function runMenuAction(action: DeskMenuAction, resetNotifications: () => void): Promise<void> {
  const desk = host?.current();
  if (action === 'quit') app.quit();
  else if (action === 'show-board' && window) focusWindow(window);
  else if (action === 'copy-endpoint' && desk) clipboard.writeText(desk.origin);
  else if (action === 'copy-token') clipboard.writeText(token);
  else if (action === 'open-repository' && host) {
    const folder = await pickFolder();
    if (folder === undefined) return;
    menus?.update({ ...(desk && { endpoint: desk.origin, repoPath: desk.repoRoot }), busy: true });
    let next: RunningDesk | undefined;
    try {
      next = await host.switchTo(folder);
    } catch (error) {
      await offerAnotherFolder(folder, error, false);
      // The old core keeps running when the new one could not be built; reopen it if the switch got further.
      next = host.current() ?? (desk ? await host.open(desk.repoRoot).catch(() => undefined) : undefined);
    }
    resetNotifications();
    menus?.update({ ...(next && { endpoint: next.origin, repoPath: next.repoRoot }), busy: false });
    if (next && window) await showBoard(window, boardUrl(next.origin, token));
  }
}

async function pickFolder(): Promise<string | undefined> {
  const options = { title: 'Choose the git repository Assignment Desk works on', properties: ['openDirectory' as const] };
  const picked = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
  return picked.canceled ? undefined : picked.filePaths[0];
}

/** Shows why a folder cannot be used; with `ask`, whether to choose another (true) or give up. */
async function offerAnotherFolder(folder: string, error: unknown, ask = true): Promise<boolean> {
  const detail = error instanceof Error ? error.message : String(error);
  const answer = await dialog.showMessageBox({
    type: 'warning', title: 'Assignment Desk', message: `Cannot work on ${folder}`, detail,
    buttons: ask ? ['Choose Another Folder…', 'Quit'] : ['OK'], defaultId: 0, cancelId: ask ? 1 : 0,
  });
  return ask && answer.response === 0;
}

// macOS keeps an app without windows running; everywhere else closing the board quits the desk.
app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
app.on('activate', () => {
  const desk = host?.current();
  if (!window && desk) void openWindow(desk);
});

// Quitting waits for the core: agents' process groups are killed and the database closed, then the app exits.
let closing: Promise<void> | undefined;
app.on('will-quit', (event) => {
  if (closing === undefined && host) {
    event.preventDefault();
    closing = host.close()
      .catch((error: unknown) => log(`Could not stop cleanly: ${String(error)}`))
      .finally(() => {
        menus?.destroy();
        releaseLock?.();
        app.quit();
      });
  }
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
