// Reads the person's branches, tags and remote-tracking branches as git's files backend stores them: loose ref files
// under refs/ and packed-refs. Only reads; what the text means is ref-snapshot-text.ts's to say.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readPlainSync } from './plain-file';
import { SNAPSHOT_PREFIXES, type RefFiles } from './ref-snapshot-text';

/** Past this many loose refs, reading them costs the desk about what one git process does (see ref-snapshot.ts). */
const LOOSE_REFS_MAX = 128;
/** A packed-refs file larger than this is left to git (see branch-files.ts). */
const PACKED_REFS_MAX_BYTES = 1024 * 1024;
/** A loose ref holds an object name or `ref: <name>`: anything longer is odd. */
const LOOSE_REF_MAX_BYTES = 256;
/** Deeper than this, a ref dir is odd: left to git. */
const DEPTH_MAX = 16;

export type RefFilesRead = { kind: 'files'; files: RefFiles } | { kind: 'ask-git'; why: string };

/**
 * The loose refs under the snapshot's prefixes and packed-refs, in git's own order: loose first, then packed-refs, so
 * that a `pack-refs` running meanwhile (it writes packed-refs before it removes the loose files) loses no ref. Asks
 * for git when the repository keeps refs another way (reftable), replaces objects (refs/replace, which git honours
 * when it peels), or holds anything but plain files and dirs there.
 *
 * Read with blocking calls on purpose: a few dozen small files take well under a millisecond that way, where the same
 * reads through promises cost the desk more CPU than the git process they replace (measured: 5 ms against 3 ms for 56
 * loose refs), and a spawn blocks the event loop longer still.
 */
export function readRefFiles(commonDir: string): RefFilesRead {
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
      if (entry.isDirectory()) {
        const odd = depth >= DEPTH_MAX ? `${path} is too deep` : walk(path, ref, depth + 1);
        if (odd !== undefined) return odd;
        continue;
      }
      if (!entry.isFile()) return `${path} is not a plain file`;
      if (loose.size >= LOOSE_REFS_MAX) return `more than ${LOOSE_REFS_MAX} loose refs`;
      const read = readPlainSync(path, LOOSE_REF_MAX_BYTES);
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
