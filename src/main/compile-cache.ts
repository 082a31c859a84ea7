// Node 22 and later can keep V8's compiled code for the desk's bundles on disk, so a start after the first one skips
// compiling about 1.5 MB of JavaScript (a third of the time the headless host spends loading its modules). Node 20
// has no such cache: there this does nothing. It must run before the bundles are imported, so the entry that calls it
// imports nothing else of the desk statically.
import * as nodeModule from 'node:module';

/** What came of asking for the cache; it is never needed, so no outcome stops the desk. */
export type CompileCacheOutcome = 'enabled' | 'already-enabled' | 'disabled' | 'failed' | 'unsupported';

/** The part of `node:module` this uses; Node 20's typings do not know it. */
export interface CompileCacheApi {
  enableCompileCache?: (directory?: string) => { status: number };
  constants?: { compileCacheStatus?: { ENABLED: number; ALREADY_ENABLED: number; DISABLED: number; FAILED: number } };
}

/**
 * Turns the cache on in Node's own place for it (the OS temp dir, or `NODE_COMPILE_CACHE`), keyed by Node's version
 * and each file's content, so an upgraded desk or Node never runs stale code. `NODE_DISABLE_COMPILE_CACHE=1` keeps it off.
 */
export function enableCompileCache(api: CompileCacheApi = nodeModule as CompileCacheApi): CompileCacheOutcome {
  const statuses = api.constants?.compileCacheStatus;
  if (typeof api.enableCompileCache !== 'function' || !statuses) return 'unsupported';
  try {
    const { status } = api.enableCompileCache();
    if (status === statuses.ENABLED) return 'enabled';
    if (status === statuses.ALREADY_ENABLED) return 'already-enabled';
    if (status === statuses.DISABLED) return 'disabled';
    return 'failed';
  } catch {
    // An unwritable temp dir is reported by status on the Node versions we know; a throw is treated the same way.
    return 'failed';
  }
}
