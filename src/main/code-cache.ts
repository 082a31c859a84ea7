// Runs the headless host's one-file bundle (host-bundle.ts) with V8's code cache: the code V8 compiled for it on an
// earlier start, kept on disk. Node 20 keeps no compiled code for ES modules, and Node 22's own compile cache keeps
// only what is compiled before a module runs. This keeps the code as it stands once the host has started (`keep`), so
// the functions the start-up needed are in it too: 50–90 ms off the host's start on the 2-core build machine with
// Node 20, about 40 ms with Node 22. A cache is only ever an optimization: a missing, stale or broken one costs one
// ordinary compile, never the start.
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { Script } from 'node:vm';
import { HOST_BUNDLE_WRAPPER } from './host-bundle';

/** What the load did with the cache: none wanted, V8 took the saved code, or new code was made (none saved, or V8 refused it). */
export type CodeCacheUse = 'off' | 'used' | 'made' | 'remade';

export interface LoadedBundle<T> {
  exports: T;
  cache: CodeCacheUse;
  /**
   * Puts the code V8 has compiled for the bundle so far on disk, when this start found none to use: call it once the
   * host has started, so the code its start-up compiled after the top level is kept too (about 7 ms of each later
   * start), and before anything changes V8's flags, under which V8 would refuse the code (heap-tuning.ts). Written
   * synchronously: a host stopped right after its first answer still leaves its code. Does nothing the second time,
   * and never throws: a cache that cannot be written leaves the next start compiling, as without one.
   */
  keep: () => void;
}

/** Everything that makes V8 refuse code made elsewhere, so a change of any of them starts a new cache file. */
export interface CodeCacheRuntime {
  node: string;
  v8: string;
  arch: string;
  /** Node's and V8's options: V8 refuses code made under other flags. */
  flags: string;
}

/** How many cache files of one bundle stay: a few builds that start in turn (two checkouts) keep theirs. */
const KEPT_PER_BUNDLE = 3;

export function currentRuntime(): CodeCacheRuntime {
  return { node: process.version, v8: process.versions.v8, arch: process.arch, flags: [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ') };
}

/**
 * The user's own cache folder, as each platform names it; undefined when `NODE_DISABLE_COMPILE_CACHE` is set, the
 * switch Node gives its own compile cache. Never a shared temp dir: whoever can write the cache chooses the code run.
 */
export function codeCacheDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'Assignment Desk', 'code-cache');
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'Assignment Desk', 'Cache', 'code-cache');
  const xdgCache = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.startsWith('/') ? env.XDG_CACHE_HOME : join(home, '.cache');
  return join(xdgCache, 'assignment-desk', 'code-cache');
}

/**
 * The cache file's name for this bundle's content under this runtime. Keyed by the content, not the file's dates:
 * `npm run serve` rebuilds before every start, and an unchanged build must find its code. (V8 itself checks only the
 * source's length, so a changed bundle of the same length must never find the old code.)
 */
export function codeCacheFileName(bundle: string, contentDigest: string, runtime: CodeCacheRuntime): string {
  const key = createHash('sha256')
    .update(JSON.stringify([contentDigest, runtime.node, runtime.v8, runtime.arch, runtime.flags]))
    .digest('hex')
    .slice(0, 24);
  return `${cachePrefix(bundle)}${key}.v8`;
}

/** The cache files of `bundle` to delete: all but the `keep` most recently written. */
export function staleCacheFiles(bundle: string, files: { name: string; mtimeMs: number }[], keep = KEPT_PER_BUNDLE): string[] {
  const prefix = cachePrefix(bundle);
  return files.filter((file) => file.name.startsWith(prefix) && file.name.endsWith('.v8'))
    .sort((a, b) => b.mtimeMs - a.mtimeMs)
    .slice(keep)
    .map((file) => file.name);
}

const cachePrefix = (bundle: string) => `${basename(bundle).replace(/[^A-Za-z0-9_.-]/g, '_')}-`;

/**
 * Runs the bundle at `bundle` and returns its exports. The bundle is a CommonJS module already wrapped in the function
 * `require` puts around one (HOST_BUNDLE_WRAPPER): a script whose value is a function of `exports`, `require`,
 * `module`, `__filename` and `__dirname`. Its `require` resolves from the bundle's folder. `cacheDir` undefined: no
 * cache, read or written. The bundle cannot use `import()` (see below).
 */
export function loadWithCodeCache<T>(bundle: string, cacheDir: string | undefined, runtime = currentRuntime()): LoadedBundle<T> {
  const { text: source, digest } = readInPieces(bundle);
  const cacheFile = cacheDir === undefined ? undefined : join(cacheDir, codeCacheFileName(bundle, digest, runtime));
  const cachedData = cacheFile === undefined ? undefined : readIfThere(cacheFile);
  // Anything else would run its top level in the desk's global scope.
  if (!source.startsWith(HOST_BUNDLE_WRAPPER.head)) throw new Error(`${bundle} is not a wrapped module: it does not start with ${HOST_BUNDLE_WRAPPER.head}`);
  // No `importModuleDynamically`: code V8 takes from its cache on Node 20 loses it, so `import()` would work on the
  // first start and throw on the next. The bundle has no `import()` (build/host-bundle-plugin.ts makes sure).
  const script = new Script(source, { filename: bundle, ...(cachedData && { cachedData }) });
  const wrapped = script.runInThisContext() as (...args: unknown[]) => void;
  const module = { exports: {} as T };
  wrapped(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  const nothingToKeep = () => undefined;
  if (cacheFile === undefined || cacheDir === undefined) return { exports: module.exports, cache: 'off', keep: nothingToKeep };
  if (cachedData && !script.cachedDataRejected) return { exports: module.exports, cache: 'used', keep: nothingToKeep };
  let kept = false;
  const keep = () => {
    if (kept) return;
    kept = true;
    save(bundle, cacheDir, cacheFile, script.createCachedData());
  };
  return { exports: module.exports, cache: cachedData ? 'remade' : 'made', keep };
}

/**
 * A text file and the SHA-256 of its bytes, read 64 KiB at a time (hashing 1.7 MB as it is read costs about 2 ms).
 * Read whole, the bundle would pass through one malloc'd block, and freeing a block that large makes glibc raise its
 * mmap threshold to its size: from then on the desk's mid-sized allocations stay resident after they are freed
 * (measured: 3–4 MB more after 10,000 submissions; none read this way).
 */
function readInPieces(file: string): { text: string; digest: string } {
  const fd = openSync(file, 'r');
  try {
    const piece = Buffer.allocUnsafe(64 * 1024);
    const decoder = new StringDecoder('utf8');
    const hash = createHash('sha256');
    const parts: string[] = [];
    for (let read = readSync(fd, piece); read > 0; read = readSync(fd, piece)) {
      const bytes = piece.subarray(0, read);
      hash.update(bytes);
      parts.push(decoder.write(bytes));
    }
    parts.push(decoder.end());
    return { text: parts.join(''), digest: hash.digest('hex') };
  } finally {
    closeSync(fd);
  }
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes beside and renames, so a desk starting at the same time reads the old file or the new one, never half. */
function save(bundle: string, cacheDir: string, cacheFile: string, code: Buffer): void {
  const partial = `${cacheFile}.${process.pid}.partial`;
  try {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    writeFileSync(partial, code, { mode: 0o600 });
    renameSync(partial, cacheFile);
    const files = readdirSync(cacheDir).map((name) => ({ name, mtimeMs: statSync(join(cacheDir, name)).mtimeMs }));
    for (const name of staleCacheFiles(bundle, files)) rmSync(join(cacheDir, name), { force: true });
  } catch {
    // An unwritable cache folder leaves every start compiling, as without a cache; the desk itself is unaffected.
    try {
      rmSync(partial, { force: true });
    } catch {
      // nothing was written
    }
  }
}
