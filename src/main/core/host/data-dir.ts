// Where the desk keeps its database, worktrees and token by default, following each platform's convention. Pure.
import { join } from 'node:path';

export function defaultDataDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Assignment Desk');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Assignment Desk');
  // XDG Base Directory: user data that should survive belongs under XDG_DATA_HOME.
  const xdgData = env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith('/') ? env.XDG_DATA_HOME : join(home, '.local', 'share');
  return join(xdgData, 'assignment-desk');
}
