// The names of the headless host's code-cache files and which of them to keep: pure decisions for code-cache.ts. A
// cache file is found by the bundle's content (hashed) or, once the bundle has settled, by its file stamp (no hashing).
import { createHash } from 'node:crypto';
import { basename } from 'node:path';

/** Everything that makes V8 refuse code made elsewhere, so a change of any of them starts a new cache file. */
export interface CodeCacheRuntime {
  node: string;
  v8: string;
  arch: string;
  /** Node's and V8's options: V8 refuses code made under other flags. */
  flags: string;
}

/**
 * What the file system says of the bundle file: device, inode, size, modification and change times in nanoseconds.
 * The change time (ctime) is the one no unprivileged call can set: the kernel stamps it with the clock on every write,
 * rename or `utimes`, so a file changed in any way after the stamp was taken has another stamp.
 */
export interface BundleStamp {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

/** How many cache files of each kind stay per bundle: a few builds that start in turn (two checkouts) keep theirs. */
const KEPT_PER_KIND = 3;

/**
 * How long ago the bundle must have last changed for its stamp to name its code. A change in the same tick of a
 * coarse file-system clock as the stamp's could keep every field of it; past this margin a later change cannot
 * (unless the clock is set back by more than this meanwhile).
 */
export const SETTLED_MS = 2000;

/**
 * The cache file's name for this bundle's content under this runtime. Keyed by the content, not the file's dates:
 * `npm run serve` rebuilds before every start, and an unchanged build must find its code. (V8 itself checks only the
 * source's length, so a changed bundle of the same length must never find the old code.)
 */
export function codeCacheFileName(bundle: string, contentDigest: string, runtime: CodeCacheRuntime): string {
  return `${cachePrefix(bundle)}${keyOf([contentDigest, runtime.node, runtime.v8, runtime.arch, runtime.flags])}.v8`;
}

/**
 * The second name of the same cache file (a hard link), keyed by the bundle's stamp instead of its content: a start
 * that finds it need not hash the 2 MB bundle (about 2 ms). Made only for a settled bundle (see isSettled).
 */
export function stampAliasName(bundle: string, stamp: BundleStamp, runtime: CodeCacheRuntime): string {
  const fields = [stamp.dev, stamp.ino, stamp.size, stamp.mtimeNs, stamp.ctimeNs].map(String);
  return `${cachePrefix(bundle)}${STAMP_MARK}${keyOf([...fields, runtime.node, runtime.v8, runtime.arch, runtime.flags])}.v8`;
}

/**
 * Whether the bundle last changed at least SETTLED_MS before `nowMs`, so that its stamp may name its code. A change
 * time in the future (another machine's clock, over a network file system) is not settled.
 */
export function isSettled(stamp: BundleStamp, nowMs: number): boolean {
  return stamp.ctimeNs <= (BigInt(Math.floor(nowMs)) - BigInt(SETTLED_MS)) * 1_000_000n;
}

/**
 * Whether a file's stamp may name its code on this platform: where the kernel alone sets a file's change time (Linux,
 * macOS and the other Unixes). On Windows a program may set it (SetFileInformationByHandle), so there the content
 * alone names the code.
 */
export function stampsNameCode(platform: NodeJS.Platform): boolean {
  return platform !== 'win32';
}

/** The cache files of `bundle` to delete: all but the `keep` most recently written of each kind (content, stamp). */
export function staleCacheFiles(bundle: string, files: { name: string; mtimeMs: number }[], keep = KEPT_PER_KIND): string[] {
  const prefix = cachePrefix(bundle);
  const ours = files.filter((file) => file.name.startsWith(prefix) && file.name.endsWith('.v8'));
  const newestFirst = (kind: typeof ours) => [...kind].sort((a, b) => b.mtimeMs - a.mtimeMs).slice(keep).map((file) => file.name);
  const isAlias = (name: string) => name.startsWith(`${prefix}${STAMP_MARK}`);
  return [...newestFirst(ours.filter((file) => !isAlias(file.name))), ...newestFirst(ours.filter((file) => isAlias(file.name)))];
}

const STAMP_MARK = 'stamp-';

const keyOf = (fields: string[]) => createHash('sha256').update(JSON.stringify(fields)).digest('hex').slice(0, 24);

const cachePrefix = (bundle: string) => `${basename(bundle).replace(/[^A-Za-z0-9_.-]/g, '_')}-`;
