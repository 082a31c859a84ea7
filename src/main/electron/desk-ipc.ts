// The main-process side of window.desk: one handler per channel, each refusing any sender but the board's
// top frame on the app's origin, and each re-checking its argument (a renderer is not trusted).
import { spawn } from 'node:child_process';
import { realpathSync, statSync } from 'node:fs';
import { dialog, ipcMain, shell, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { DESK_CHANNELS, type NativeResult } from '../../shared/desk-bridge';
import { isTrustedSender, parsePathArg } from '../shell/ipc-sender';
import { isInsideRoots, openFileAction } from '../shell/path-policy';
import type { OriginSource } from './web-security';
import { DeskError } from '../../shared/desk-error';

export interface DeskIpcOptions {
  appOrigin: OriginSource;
  boardWindow: () => BrowserWindow | undefined;
  /** The repository and the worktrees folder: the only places reveal and open may reach. */
  allowedRoots: () => string[];
  env: NodeJS.ProcessEnv;
  log: (message: string) => void;
}


export function registerDeskIpc(options: DeskIpcOptions): void {
  const guard = <A extends unknown[], R>(handler: (...args: A) => Promise<R>) => (event: IpcMainInvokeEvent, ...args: A): Promise<R> => {
    const frame = event.senderFrame;
    const trusted = isTrustedSender({
      frameUrl: frame?.url,
      isTopFrame: frame !== null && frame.parent === null,
      fromBoardWindow: event.sender === options.boardWindow()?.webContents,
    }, options.appOrigin());
    if (!trusted) {
      options.log(`Refused an IPC call from ${frame?.url ?? 'a closed frame'}.`);
      return Promise.reject(new DeskError('forbidden', 'untrusted_sender', 'Not allowed.'));
    }
    return handler(...args);
  };

  ipcMain.handle(DESK_CHANNELS.pickRepository, guard(async () => {
    const window = options.boardWindow();
    const properties: ('openDirectory' | 'createDirectory')[] = ['openDirectory', 'createDirectory'];
    const picked = window
      ? await dialog.showOpenDialog(window, { title: 'Choose a git repository', properties })
      : await dialog.showOpenDialog({ title: 'Choose a git repository', properties });
    return picked.canceled ? null : picked.filePaths[0] ?? null;
  }));

  ipcMain.handle(DESK_CHANNELS.revealPath, guard(async (value: unknown): Promise<NativeResult> => {
    const checked = checkedPath(value, options.allowedRoots());
    if (!checked.ok) return checked;
    if (statSync(checked.path).isDirectory()) {
      const failure = await shell.openPath(checked.path);
      return failure === '' ? { ok: true } : { ok: false, reason: failure };
    }
    shell.showItemInFolder(checked.path);
    return { ok: true };
  }));

  ipcMain.handle(DESK_CHANNELS.openInEditor, guard(async (value: unknown): Promise<NativeResult> => {
    const checked = checkedPath(value, options.allowedRoots());
    if (!checked.ok) return checked;
    const stat = statSync(checked.path);
    if (!stat.isFile()) return { ok: false, reason: 'Only files can be opened in an editor.' };
    const action = openFileAction({
      file: checked.path,
      editor: options.env.ASSIGNMENT_DESK_EDITOR,
      executable: process.platform !== 'win32' && (stat.mode & 0o111) !== 0,
    });
    if (action.kind === 'editor') return launchEditor(action.command, action.args);
    if (action.kind === 'reveal') {
      shell.showItemInFolder(checked.path);
      return { ok: true };
    }
    const failure = await shell.openPath(checked.path);
    return failure === '' ? { ok: true } : { ok: false, reason: failure };
  }));
}

/** The argument as a real path (symlinks resolved) inside one of the roots, or the reason it is refused. */
function checkedPath(value: unknown, roots: string[]): { ok: true; path: string } | { ok: false; reason: string } {
  const path = parsePathArg(value);
  if (path === undefined) return { ok: false, reason: 'Give an absolute path.' };
  let real: string;
  try {
    real = realpathSync.native(path);
  } catch {
    return { ok: false, reason: `${path} does not exist.` };
  }
  const realRoots = roots.flatMap((root) => {
    try {
      return [realpathSync.native(root)];
    } catch {
      return [];
    }
  });
  return isInsideRoots(real, realRoots) ? { ok: true, path: real } : { ok: false, reason: 'Only files of the repository and its task worktrees can be opened.' };
}

function launchEditor(command: string, args: string[]): Promise<NativeResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.once('error', (error) => resolve({ ok: false, reason: `Could not start ${command}: ${error.message}` }));
    child.once('spawn', () => {
      child.unref();
      resolve({ ok: true });
    });
  });
}
