// The desk's folder in the account's cache, as each platform names it: what a start keeps for the next one (V8's code
// for the bundle, the answers of its trial runs). Never a shared temp dir: whoever can write it chooses what a start
// trusts.
import { join } from 'node:path';

export function deskCacheDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'Assignment Desk');
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'Assignment Desk', 'Cache');
  const xdgCache = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.startsWith('/') ? env.XDG_CACHE_HOME : join(home, '.cache');
  return join(xdgCache, 'assignment-desk');
}

/** Where the answers of the start's trial runs are remembered (core/host/probe-memory.ts). */
export function probeMemoryDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  return join(deskCacheDir(platform, env, home), 'probes');
}
