// What the native extras may touch: only paths inside the repository or the desk's worktrees, and "open in
// editor" never runs a program (a file the OS would execute is shown in its folder instead). Pure.
import { splitCommandLine } from '../core/index';
import { extname, posix, win32 } from 'node:path';
import { isDeskError } from '../../shared/desk-error';

/** `path` and `roots` must already be resolved through symlinks (realpath), or a link could lead outside. */
export function isInsideRoots(path: string, roots: readonly string[], platform: NodeJS.Platform = process.platform): boolean {
  const lib = platform === 'win32' ? win32 : posix;
  return roots.some((root) => {
    const relative = lib.relative(root, path);
    return relative === '' || (!relative.startsWith('..') && !lib.isAbsolute(relative));
  });
}

/** Extensions a file manager or the OS runs, installs or follows instead of showing. */
const LAUNCHABLE = new Set([
  '.app', '.appimage', '.bat', '.cmd', '.com', '.command', '.cpl', '.deb', '.desktop', '.dmg', '.exe', '.hta', '.jar',
  '.js', '.jse', '.lnk', '.msc', '.msi', '.msp', '.pif', '.pkg', '.ps1', '.reg', '.rpm', '.run', '.scr', '.scpt',
  '.url', '.vbe', '.vbs', '.webloc', '.workflow', '.ws', '.wsf', '.wsh',
]);

export type OpenFileAction =
  | { kind: 'editor'; command: string; args: string[] }
  | { kind: 'default-app' }
  | { kind: 'reveal'; reason: string };

export interface OpenFileInput {
  file: string;
  /** ASSIGNMENT_DESK_EDITOR, e.g. `code --goto` or `/usr/bin/gedit`: the file is added as the last argument. */
  editor: string | undefined;
  /** The file has an execute bit (POSIX). */
  executable: boolean;
}

export function openFileAction({ file, editor, executable }: OpenFileInput): OpenFileAction {
  if (editor !== undefined && editor.trim() !== '') {
    try {
      const [command, ...args] = splitCommandLine(editor);
      if (command) return { kind: 'editor', command, args: [...args, file] };
    } catch (error) {
      if (!(isDeskError(error, 'invalid_command_line'))) throw error;
      return { kind: 'reveal', reason: `ASSIGNMENT_DESK_EDITOR cannot be read: ${error.message}` };
    }
  }
  if (executable || LAUNCHABLE.has(extname(file).toLowerCase())) {
    return { kind: 'reveal', reason: 'The system would run this file rather than open it; it is shown in its folder instead.' };
  }
  return { kind: 'default-app' };
}
