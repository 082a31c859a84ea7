// Agents are found on PATH, but an app started from the Dock, Finder or a desktop launcher gets a bare PATH
// (/usr/bin:/bin…) without Homebrew, nvm or npm's global bin. The desk asks the person's login shell for
// theirs once at start and adds what is missing, keeping the inherited entries first.
import { execFile } from 'node:child_process';

const MARKER = '__ASSIGNMENT_DESK_PATH__';

/** The shell invocation that prints PATH between markers (rc files may print banners around it). */
export function loginShellInvocation(shell: string): { command: string; args: string[] } {
  return { command: shell, args: ['-ilc', `printf '%s%s%s' '${MARKER}' "$PATH" '${MARKER}'`] };
}

export function pathFromShellOutput(output: string): string | undefined {
  const start = output.indexOf(MARKER);
  const end = output.indexOf(MARKER, start + MARKER.length);
  if (start === -1 || end === -1) return undefined;
  const path = output.slice(start + MARKER.length, end).trim();
  return path === '' ? undefined : path;
}

/** The inherited entries in their order, then the login shell's that were missing. POSIX `:` lists. */
export function mergePathLists(inherited: string | undefined, login: string | undefined): string {
  const entries = [...(inherited ?? '').split(':'), ...(login ?? '').split(':')].filter((entry) => entry !== '');
  return [...new Set(entries)].join(':');
}

/**
 * Started from a terminal (`npm start`), PATH is already the person's. Windows programs get the user's PATH
 * from the registry. Otherwise the login shell knows it.
 */
export function needsLoginPath(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, fromTerminal: boolean): boolean {
  return platform !== 'win32' && !fromTerminal && env.ASSIGNMENT_DESK_NO_LOGIN_PATH !== '1';
}

/** The login shell's PATH, or undefined when the shell fails, hangs (5 s) or prints none. */
export function readLoginShellPath(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const { command, args } = loginShellInvocation(env.SHELL && env.SHELL.startsWith('/') ? env.SHELL : '/bin/sh');
  return new Promise((resolve) => {
    // An rc file that ends in an error still printed PATH before it; the markers tell.
    execFile(command, args, { env, timeout: 5_000, encoding: 'utf8', maxBuffer: 1024 * 1024 }, (_error, stdout) => {
      resolve(pathFromShellOutput(stdout ?? ''));
    });
  });
}
