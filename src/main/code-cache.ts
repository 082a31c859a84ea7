// Runs the headless host's one-file bundle (host-bundle.ts) with V8's code cache: the code V8 compiled for it on an
// earlier start, kept on disk. Node 20 keeps no compiled code for ES modules, and Node 22's own compile cache keeps
// only what is compiled before a module runs. This keeps the code as it stands once the host has started (`keep`), so
// the functions the start-up needed are in it too: 50–90 ms off the host's start on the 2-core build machine with
// Node 20, about 40 ms with Node 22. A cache is only ever an optimization: a missing, stale or broken one costs one
// ordinary compile, never the start.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isAscii } from 'node:buffer';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { type BundleStamp, type CodeCacheRuntime, codeCacheFileName, isSettled, stampAliasName, stampsNameCode, staleCacheFiles } from './code-cache-names';
import { deskCacheDir } from './desk-cache-dir';
import { HOST_BUNDLE_WRAPPER } from './host-bundle';

export type { CodeCacheRuntime } from './code-cache-names';

/** What the load did with the cache: none wanted, V8 took the saved code, or new code was made (none saved, or V8 refused it). */
export type CodeCacheUse = 'off' | 'used' | 'made' | 'remade';

export interface LoadedBundle<T> {
  exports: T;
  cache: CodeCacheUse;
  /**
   * Puts the code V8 has compiled for the bundle so far on disk, when this start found none to use: call it once the
   * host has started, so the code its start-up compiled after the top level is kept too (about 7 ms of each later
   * start), and before anything changes V8's flags, under which V8 would refuse the code (heap-tuning.ts). Written
   * synchronously: a host stopped right after its first answer still leaves its code. When the code was found by the
   * bundle's content and the bundle has settled, it gives the file its second name (the stamp's), so the next start
   * need not hash the bundle. Does nothing the second time, and never throws: a cache that cannot be written leaves
   * the next start compiling, as without one.
   */
  keep: () => void;
  /**
   * The bundle's bytes, to be held as long as the host runs. Read in one block, they were one malloc'd allocation,
   * and freeing a block that large makes glibc raise its mmap threshold to its size: from then on the desk's
   * mid-sized allocations stay resident after they are freed (measured: 3–4 MB more after 10,000 submissions).
   */
  bytes: Buffer;
}

export interface LoadOptions {
  runtime?: CodeCacheRuntime;
  /** The clock that says whether the bundle has settled (code-cache-names.ts); tests move it on. */
  now?: () => number;
  /** Whether the bundle's stamp may name its code depends on it (stampsNameCode). */
  platform?: NodeJS.Platform;
}

export function currentRuntime(): CodeCacheRuntime {
  return { node: process.version, v8: process.versions.v8, arch: process.arch, flags: [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ') };
}

/**
 * The user's own cache folder, as each platform names it; undefined when `NODE_DISABLE_COMPILE_CACHE` is set, the
 * switch Node gives its own compile cache. Never a shared temp dir: whoever can write the cache chooses the code run.
 */
export function codeCacheDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  return join(deskCacheDir(platform, env, home), 'code-cache');
}

/**
 * Runs the bundle at `bundle` and returns its exports. The bundle is a CommonJS module already wrapped in the function
 * `require` puts around one (HOST_BUNDLE_WRAPPER): a script whose value is a function of `exports`, `require`,
 * `module`, `__filename` and `__dirname`. Its `require` resolves from the bundle's folder. `cacheDir` undefined: no
 * cache, read or written. The bundle cannot use `import()` (see below).
 */
export function loadWithCodeCache<T>(bundle: string, cacheDir: string | undefined, options: LoadOptions = {}): LoadedBundle<T> {
  const runtime = options.runtime ?? currentRuntime();
  const now = options.now ?? Date.now;
  const byStamp = stampsNameCode(options.platform ?? process.platform);
  const { bytes, stamp } = readWhole(bundle);
  // The bundle is ASCII (the build warns otherwise): read as Latin-1 it becomes V8's one-byte string straight from the
  // bytes, with no UTF-8 decoding, held outside V8's heap (about 2 ms less than decoding it, and less to collect).
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  // Anything else would run its top level in the desk's global scope.
  if (!source.startsWith(HOST_BUNDLE_WRAPPER.head)) throw new Error(`${bundle} is not a wrapped module: it does not start with ${HOST_BUNDLE_WRAPPER.head}`);
  const found = cacheDir === undefined ? undefined : findCode(bundle, cacheDir, bytes, byStamp ? stamp : undefined, runtime);
  // No `importModuleDynamically`: code V8 takes from its cache on Node 20 loses it, so `import()` would work on the
  // first start and throw on the next. The bundle has no `import()` (build/host-bundle-plugin.ts makes sure).
  const script = new Script(source, { filename: bundle, ...(found?.code && { cachedData: found.code }) });
  const wrapped = script.runInThisContext() as (...args: unknown[]) => void;
  const module = { exports: {} as T };
  wrapped(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  if (cacheDir === undefined || found === undefined) return { exports: module.exports, cache: 'off', keep: () => undefined, bytes };
  const alias = join(cacheDir, stampAliasName(bundle, stamp, runtime));
  const used = found.code !== undefined && !script.cachedDataRejected;
  let kept = false;
  const keep = () => {
    if (kept) return;
    kept = true;
    const settled = byStamp && isSettled(stamp, now());
    if (used) {
      // Found by content: name it by the stamp too, so the next start skips the hash.
      if (settled && found.by === 'content') linkAlias(found.file, alias);
      return;
    }
    const file = join(cacheDir, codeCacheFileName(bundle, found.digest ?? digestOf(bytes), runtime));
    save(bundle, cacheDir, file, script.createCachedData(), settled ? alias : undefined);
  };
  return { exports: module.exports, cache: used ? 'used' : found.code ? 'remade' : 'made', keep, bytes };
}

interface FoundCode {
  /** The saved code, if any. */
  code?: Buffer;
  /** Which name found it, and the file read. */
  by?: 'stamp' | 'content';
  file: string;
  /** The content's digest, when it was computed. */
  digest?: string;
}

/** The saved code for the bundle: under its stamp's name first (no hashing) when given one, else under its content's. */
function findCode(bundle: string, cacheDir: string, bytes: Buffer, stamp: BundleStamp | undefined, runtime: CodeCacheRuntime): FoundCode {
  const byStamp = stamp && join(cacheDir, stampAliasName(bundle, stamp, runtime));
  const stamped = byStamp && readIfThere(byStamp);
  if (byStamp && stamped) return { code: stamped, by: 'stamp', file: byStamp };
  const digest = digestOf(bytes);
  const byContent = join(cacheDir, codeCacheFileName(bundle, digest, runtime));
  const code = readIfThere(byContent);
  return code ? { code, by: 'content', file: byContent, digest } : { file: byContent, digest };
}

/** The bundle's bytes in one read, and its stamp taken from the same open file. */
function readWhole(file: string): { bytes: Buffer; stamp: BundleStamp } {
  const fd = openSync(file, 'r');
  try {
    const stat = fstatSync(fd, { bigint: true });
    const bytes = Buffer.allocUnsafeSlow(Number(stat.size));
    let read = 0;
    while (read < bytes.length) {
      const got = readSync(fd, bytes, read, bytes.length - read, read);
      if (got === 0) break; // the file shrank meanwhile: V8's length check or the wrapper's refuses what was read
      read += got;
    }
    const stamp = { dev: stat.dev, ino: stat.ino, size: stat.size, mtimeNs: stat.mtimeNs, ctimeNs: stat.ctimeNs };
    return { bytes: read === bytes.length ? bytes : bytes.subarray(0, read), stamp };
  } finally {
    closeSync(fd);
  }
}

const digestOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Gives `file` its stamp's name too, beside and renamed; a file system without hard links just keeps hashing. */
function linkAlias(file: string, alias: string): void {
  const partial = `${alias}.${process.pid}.partial`;
  try {
    linkSync(file, partial);
    renameSync(partial, alias);
  } catch {
    rmQuietly(partial);
  }
}

/**
 * Writes beside and renames, so a desk starting at the same time reads the old file or the new one, never half; then
 * the stamp's name (`alias`, when the bundle has settled), and drops the oldest files beyond a few builds.
 */
function save(bundle: string, cacheDir: string, cacheFile: string, code: Buffer, alias: string | undefined): void {
  const partial = `${cacheFile}.${process.pid}.partial`;
  try {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    writeFileSync(partial, code, { mode: 0o600 });
    renameSync(partial, cacheFile);
    if (alias !== undefined) linkAlias(cacheFile, alias);
    const files = readdirSync(cacheDir).map((name) => ({ name, mtimeMs: statSync(join(cacheDir, name)).mtimeMs }));
    for (const name of staleCacheFiles(bundle, files)) rmSync(join(cacheDir, name), { force: true });
  } catch {
    // An unwritable cache folder leaves every start compiling, as without a cache; the desk itself is unaffected.
    rmQuietly(partial);
  }
}

function rmQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // nothing was written
  }
}
