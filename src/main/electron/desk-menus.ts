// The tray icon and the app menu: where the desk listens, copy the endpoint and token, open a repository,
// quit. Both are rebuilt from ../shell/desk-menu whenever that state changes.
import { Menu, Tray, app, nativeImage, type MenuItemConstructorOptions } from 'electron';
import { deskMenuEntries, type DeskMenuAction, type DeskMenuEntry, type DeskMenuState } from '../shell/desk-menu';

export interface DeskMenus {
  update(state: DeskMenuState): void;
  destroy(): void;
}

export function createDeskMenus(iconPath: string, run: (action: DeskMenuAction) => void, devTools: boolean): DeskMenus {
  let tray: Tray | undefined;
  try {
    // Some Linux desktops (GNOME without an extension) show no tray; the app menu offers the same.
    tray = new Tray(nativeImage.createFromPath(iconPath).resize({ width: 16, height: 16 }));
    tray.setToolTip('Assignment Desk');
  } catch {
    tray = undefined;
  }
  const items = (entries: DeskMenuEntry[]): MenuItemConstructorOptions[] => entries.map((entry) => {
    if (entry.kind === 'separator') return { type: 'separator' };
    if (entry.kind === 'info') return { label: entry.label, enabled: false };
    return { label: entry.label, enabled: entry.enabled, click: () => run(entry.action) };
  });
  return {
    update(state) {
      const entries = deskMenuEntries(state);
      tray?.setContextMenu(Menu.buildFromTemplate(items(entries)));
      Menu.setApplicationMenu(Menu.buildFromTemplate(appMenu(items(entries), devTools)));
    },
    destroy() {
      tray?.destroy();
      tray = undefined;
    },
  };
}

function appMenu(desk: MenuItemConstructorOptions[], devTools: boolean): MenuItemConstructorOptions[] {
  return [
    ...(process.platform === 'darwin' ? [{ label: app.name, submenu: [{ role: 'about' }, { type: 'separator' }, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }] } satisfies MenuItemConstructorOptions] : []),
    { label: 'Desk', submenu: desk },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        ...(devTools ? [{ role: 'toggleDevTools' } as const] : []),
        { type: 'separator' }, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
  ];
}
