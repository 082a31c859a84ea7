// Resolves a path the way the file system will: symlinks followed segment by segment, even where the
// path does not exist yet (a file about to be created), so a link out of the worktree cannot hide.
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, parse, sep } from 'node:path';

const MAX_LINK_HOPS = 40;

/** The real absolute path of `path`; relative paths are taken from the current directory. */
export function realPathOf(path: string, hops = 0): string {
  // Joined by hand: path.join/resolve would fold `link/..` lexically, but the file system climbs from the link's target.
  const absolute = isAbsolute(path) ? path : `${process.cwd()}${sep}${path}`;
  // A path that exists is resolved by the kernel in one call, `..` after a link included; one that does not (a file
  // about to be written, a dangling link) is walked segment by segment below.
  const whole = realOrMissing(absolute);
  if (whole !== undefined) return whole;
  // The usual missing path, a new file in a directory that exists: the directory resolved by the kernel in one call
  // too, where the walk below would resolve every directory above it one by one, then the last name as the walk does.
  // Not for a path with a backslash, which the walk takes as a separator and the kernel (outside Windows) does not.
  const cut = absolute.lastIndexOf('/');
  const last = absolute.slice(cut + 1);
  if (cut > 0 && !absolute.includes('\\') && last !== '' && last !== '.' && last !== '..') {
    const parent = realOrMissing(absolute.slice(0, cut));
    if (parent !== undefined) return resolveSegment(join(parent, last), hops);
  }
  const { root } = parse(absolute);
  let current = realpathSync.native(root);
  for (const segment of absolute.slice(root.length).split(/[\\/]+/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      current = dirname(current);
      continue;
    }
    current = resolveSegment(join(current, segment), hops);
  }
  return current;
}

/** realpath(3) of `path` (one system call, where fs.realpathSync looks at every segment itself); undefined when it is missing. */
function realOrMissing(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    return undefined;
  }
}

function resolveSegment(next: string, hops: number): string {
  const real = realOrMissing(next);
  if (real !== undefined) return real;
  // A dangling link still decides where a write lands: follow it to its (missing) target.
  let isLink = false;
  try {
    // Nothing there (the usual case: a file about to be written) answered without an error object made and thrown.
    isLink = lstatSync(next, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
  } catch {
    return next;
  }
  if (!isLink) return next;
  if (hops >= MAX_LINK_HOPS) throw Object.assign(new Error(`Too many symbolic links at ${next}`), { code: 'ELOOP' });
  const target = readlinkSync(next);
  return realPathOf(isAbsolute(target) ? target : `${dirname(next)}${sep}${target}`, hops + 1);
}
