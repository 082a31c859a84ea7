// Finds the program behind an agent's command: an absolute path as it is, a bare name on PATH and then in extra bin dirs.
// Pure apart from the file check, which is passed in so tests can describe any file system and platform.
import { accessSync, constants, statSync } from 'node:fs';
import { posix, win32 } from 'node:path';

export interface DetectionContext {
  /** The variables that say where programs live: PATH (any case on Windows) and PATHEXT. */
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
  /** Searched after PATH, in order: e.g. the desk's and the repository's `node_modules/.bin`. */
  searchDirs: readonly string[];
  isExecutable(path: string): boolean;
}

export type Detection =
  | { found: true; path: string }
  | { found: false; reason: string };

const WINDOWS_DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

export function findCommand(command: string, context: DetectionContext): Detection {
  const windows = context.platform === 'win32';
  const path = windows ? win32 : posix;
  const candidates = (base: string) => (windows ? windowsCandidates(base, context.env) : [base]);

  if (path.isAbsolute(command)) {
    const found = candidates(command).find((candidate) => context.isExecutable(candidate));
    return found ? { found: true, path: found } : { found: false, reason: `${command} does not exist or is not executable` };
  }
  if (command.includes('/') || (windows && command.includes('\\'))) {
    // Relative to what? The agent starts in a worktree, so a relative path would name a different file per task.
    return { found: false, reason: `"${command}" is a relative path; give an absolute path or a program name` };
  }

  const dirs = unique([...pathDirs(context.env, context.platform), ...context.searchDirs]);
  for (const dir of dirs) {
    const found = candidates(path.join(dir, command)).find((candidate) => context.isExecutable(candidate));
    if (found) return { found: true, path: found };
  }
  const extra = context.searchDirs.length > 0 ? ` or in ${context.searchDirs.join(', ')}` : '';
  return { found: false, reason: `"${command}" was not found on PATH${extra}` };
}

/** The directories of PATH; an empty entry (meaning the current directory to a shell) is skipped on purpose. */
export function pathDirs(env: DetectionContext['env'], platform: NodeJS.Platform): string[] {
  const raw = platform === 'win32' ? variable(env, 'PATH') : env.PATH;
  return (raw ?? '').split(platform === 'win32' ? ';' : ':').map((dir) => dir.trim()).filter((dir) => dir !== '');
}

/** The real file check: a regular file, and on POSIX one we may execute. */
export function isExecutableFile(path: string, platform: NodeJS.Platform = process.platform): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (platform !== 'win32') accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Windows runs `name` as `name.EXE`, `name.CMD`…; a name that already has one of those extensions runs as it is. */
function windowsCandidates(base: string, env: DetectionContext['env']): string[] {
  const extensions = (variable(env, 'PATHEXT') ?? WINDOWS_DEFAULT_PATHEXT).split(';').map((ext) => ext.trim()).filter((ext) => ext !== '');
  const own = win32.extname(base).toUpperCase();
  const hasKnownExtension = own !== '' && extensions.some((ext) => ext.toUpperCase() === own);
  return hasKnownExtension ? [base] : extensions.map((ext) => `${base}${ext}`);
}

/** Windows variable names ignore case (`Path` is common). */
function variable(env: DetectionContext['env'], name: string): string | undefined {
  const key = Object.keys(env).find((candidate) => candidate.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
