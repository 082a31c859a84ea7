// Reads the person's branches, tags and remote-tracking branches as git's files backend stores them: loose ref files
// under refs/ and packed-refs. Only reads; what the text means is ref-snapshot-text.ts's to say.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readPlainSync } from './plain-file';
import { SNAPSHOT_PREFIXES, type HiddenTaskBranches, type RefFiles } from './ref-snapshot-text';

/**
 * Past this many loose refs git is asked instead (see ref-snapshot.ts). Every finished task keeps a branch, so a desk
 * passed the earlier 128 after 128 tasks and then started a git process every run. With the refs read before
 * remembered (LooseRefMemory) a run costs about 4.5 µs of the desk's CPU per ref (1.3 ms for 301, against 3.4 ms
 * reading each; `for-each-ref` took 9 ms of its own plus the desk's fork of ~2 ms): at 512 the desk's share is still
 * about one fork, and the machine's much less. A task's own desk's branches are no longer read at all (the folder
 * HiddenTaskBranches names is not listed); the person's refs and other desks' branches count.
 */
const LOOSE_REFS_MAX = 512;
/** A packed-refs file larger than this is left to git (see branch-files.ts). */
const PACKED_REFS_MAX_BYTES = 1024 * 1024;
/** A loose ref holds an object name or `ref: <name>`: anything longer is odd. */
const LOOSE_REF_MAX_BYTES = 256;
/** Deeper than this, a ref dir is odd: left to git. */
const DEPTH_MAX = 16;

export type RefFilesRead = { kind: 'files'; files: RefFiles } | { kind: 'ask-git'; why: string };

/**
 * Loose refs read before, by path: the text, and the file's inode, size and times when it was read. git rewrites a
 * loose ref by renaming a new file over it (a new inode), so a ref whose stamp is the same holds the same text; one
 * changed in the last two seconds is not kept (a clock too coarse to show the next change).
 */
export type LooseRefMemory = Map<string, { stamp: string; text: string }>;

/** Entries kept at most; past this the memory starts again. */
const REMEMBERED_REFS_MAX = 10_000;
const RACY_MS = 2_000;

/**
 * The loose refs under the snapshot's prefixes and packed-refs, in git's own order: loose first, then packed-refs, so
 * that a `pack-refs` running meanwhile (it writes packed-refs before it removes the loose files) loses no ref. Asks
 * for git when the repository keeps refs another way (reftable), replaces objects (refs/replace, which git honours
 * when it peels), or holds anything but plain files and dirs there.
 *
 * Read with blocking calls on purpose: a few dozen small files take well under a millisecond that way, where the same
 * reads through promises cost the desk more CPU than the git process they replace (measured: 5 ms against 3 ms for 56
 * loose refs), and a spawn blocks the event loop longer still.
 *
 * `hidden`'s folder is not listed: of it, only the task's own branch is read.
 */
export function readRefFiles(commonDir: string, memory: LooseRefMemory = new Map(), now: number = Date.now(), hidden?: HiddenTaskBranches): RefFilesRead {
  const exists = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  if (exists(join(commonDir, 'reftable'))) return { kind: 'ask-git', why: 'the repository keeps its refs in a reftable' };
  if (exists(join(commonDir, 'refs', 'replace'))) return { kind: 'ask-git', why: 'the repository replaces objects' };
  const loose = new Map<string, string>();
  const walk = (dir: string, name: string, depth: number): string | undefined => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : `${dir} could not be read`;
    }
    for (const entry of entries) {
      // Skipped as git skips them: a ref being written (its lock file, renamed into place when done), hidden names.
      if (entry.name.startsWith('.') || entry.name.endsWith('.lock')) continue;
      const path = join(dir, entry.name);
      const ref = `${name}/${entry.name}`;
      if (entry.isDirectory() && `${ref}/` === hidden?.hiddenDir) {
        const read = readLooseRef(join(commonDir, ...hidden.own.split('/')), memory, now);
        if (read === 'odd') return `${hidden.own} is not a plain file`;
        if (read !== 'missing') loose.set(hidden.own, read);
        continue;
      }
      if (entry.isDirectory()) {
        const odd = depth >= DEPTH_MAX ? `${path} is too deep` : walk(path, ref, depth + 1);
        if (odd !== undefined) return odd;
        continue;
      }
      if (!entry.isFile()) return `${path} is not a plain file`;
      if (loose.size >= LOOSE_REFS_MAX) return `more than ${LOOSE_REFS_MAX} loose refs`;
      const read = readLooseRef(path, memory, now);
      // Gone since the dir was listed: packed or deleted meanwhile, and packed-refs is read after.
      if (read === 'odd') return `${path} is not a plain file`;
      if (read !== 'missing') loose.set(ref, read);
    }
    return undefined;
  };
  for (const prefix of SNAPSHOT_PREFIXES) {
    const name = prefix.slice(0, -1);
    const odd = walk(join(commonDir, ...name.split('/')), name, 0);
    if (odd !== undefined) return { kind: 'ask-git', why: odd };
  }
  const packed = readPlainSync(join(commonDir, 'packed-refs'), PACKED_REFS_MAX_BYTES);
  if (packed === 'odd') return { kind: 'ask-git', why: 'packed-refs is large or not a plain file' };
  const packedText = packed === 'missing' ? undefined : packed;
  if (packedText?.includes(' refs/replace/')) return { kind: 'ask-git', why: 'the repository replaces objects' };
  return { kind: 'files', files: { loose, packed: packedText } };
}

/**
 * A loose ref's text as readPlainSync gives it, from memory when the file is the one read before. The stamp's times are
 * the plain numbers (milliseconds, to a fraction of a microsecond at today's dates): BigInt stats took twice as long per
 * ref, and every run reads every ref's stamp; a ref git rewrites is a new inode anyway.
 */
function readLooseRef(path: string, memory: LooseRefMemory, now: number): string | 'missing' | 'odd' {
  const info = lstatSync(path, { throwIfNoEntry: false });
  if (info === undefined) return 'missing';
  if (!info.isFile()) return 'odd';
  const stamp = `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
  const kept = memory.get(path);
  if (kept?.stamp === stamp) return kept.text;
  const read = readPlainSync(path, LOOSE_REF_MAX_BYTES);
  if (read !== 'missing' && read !== 'odd' && now - info.mtimeMs >= RACY_MS && now - info.ctimeMs >= RACY_MS) {
    if (memory.size >= REMEMBERED_REFS_MAX) memory.clear();
    memory.set(path, { stamp, text: read });
  }
  return read;
}
