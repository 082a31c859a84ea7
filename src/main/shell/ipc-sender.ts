// Who may call main over IPC: the board window's top frame while it shows the app's own origin, and nobody
// else (an iframe, another window, a page the window was tricked into loading). Plus the check of what it sent. Pure.
import { posix, win32 } from 'node:path';
import { isSameOrigin } from './app-origin';

export interface IpcSender {
  /** `event.senderFrame?.url`: undefined once the frame navigated away or was destroyed. */
  frameUrl: string | undefined;
  /** The sending frame is its window's top frame. */
  isTopFrame: boolean;
  /** The sending webContents is the board window's. */
  fromBoardWindow: boolean;
}

/** `appOrigin` is undefined until the core listens; nothing is trusted before that. */
export function isTrustedSender(sender: IpcSender, appOrigin: string | undefined): boolean {
  return appOrigin !== undefined && sender.fromBoardWindow && sender.isTopFrame && isSameOrigin(sender.frameUrl, appOrigin);
}

const MAX_PATH_LENGTH = 4096;

/** The path argument of revealPath / openInEditor: an absolute path of sane length, or undefined. */
export function parsePathArg(value: unknown, platform: NodeJS.Platform = process.platform): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_PATH_LENGTH || value.includes('\0')) return undefined;
  const path = platform === 'win32' ? win32 : posix;
  return path.isAbsolute(value) ? path.normalize(value) : undefined;
}
