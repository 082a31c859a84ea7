// Reads the person's branches, tags and remote-tracking branches as git's files backend stores them: loose ref files
// under refs/ and packed-refs. Only reads; what the text means is ref-snapshot-text.ts's to say.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readPlain } from './branch-files';
import { SNAPSHOT_PREFIXES, type RefFiles } from './ref-snapshot-text';

/** Past this many loose refs, reading them one by one costs the desk more than one git process does. */
const LOOSE_REFS_MAX = 256;
/** A packed-refs file larger than this is left to git (see branch-files.ts). */
const PACKED_REFS_MAX_BYTES = 1024 * 1024;
/** Deeper than this, a ref dir is odd: left to git. */
const DEPTH_MAX = 16;

export type RefFilesRead = { kind: 'files'; files: RefFiles } | { kind: 'ask-git'; why: string };

/**
 * The loose refs under the snapshot's prefixes and packed-refs, in git's own order: loose first, then packed-refs, so
 * that a `pack-refs` running meanwhile (it writes packed-refs before it removes the loose files) loses no ref. Asks
 * for git when the repository keeps refs another way (reftable), replaces objects (refs/replace, which git honours
 * when it peels), or holds anything but plain files and dirs there.
 */
export async function readRefFiles(commonDir: string): Promise<RefFilesRead> {
  const exists = (path: string) => lstat(path).then(() => true, () => false);
  if (await exists(join(commonDir, 'reftable'))) return { kind: 'ask-git', why: 'the repository keeps its refs in a reftable' };
  if (await exists(join(commonDir, 'refs', 'replace'))) return { kind: 'ask-git', why: 'the repository replaces objects' };
  const loose = new Map<string, string>();
  // Each dir's entries are read at once: one by one, a few hundred refs would take as long as a git process.
  const walk = async (dir: string, name: string, depth: number): Promise<string | undefined> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => error);
    if (!Array.isArray(entries)) return entries.code === 'ENOENT' ? undefined : `${dir} could not be read`;
    if (loose.size + entries.length > LOOSE_REFS_MAX) return `more than ${LOOSE_REFS_MAX} loose refs`;
    const odd = await Promise.all(entries.map(async (entry): Promise<string | undefined> => {
      // Skipped as git skips them: a ref being written (its lock file, renamed into place when done), hidden names.
      if (entry.name.startsWith('.') || entry.name.endsWith('.lock')) return undefined;
      const path = join(dir, entry.name);
      const ref = `${name}/${entry.name}`;
      if (entry.isDirectory()) return depth >= DEPTH_MAX ? `${path} is too deep` : walk(path, ref, depth + 1);
      if (!entry.isFile()) return `${path} is not a plain file`;
      const read = await readPlain(path, 256);
      // Gone since the dir was listed: packed or deleted meanwhile, and packed-refs is read after.
      if (read.state === 'odd') return `${path} is not a plain file`;
      if (read.state === 'read') loose.set(ref, read.text);
      return undefined;
    }));
    return odd.find((why) => why !== undefined);
  };
  const odd = (await Promise.all(SNAPSHOT_PREFIXES.map((prefix) => {
    const name = prefix.slice(0, -1);
    return walk(join(commonDir, ...name.split('/')), name, 0);
  }))).find((why) => why !== undefined);
  if (odd !== undefined) return { kind: 'ask-git', why: odd };
  const packed = await readPlain(join(commonDir, 'packed-refs'), PACKED_REFS_MAX_BYTES);
  if (packed.state === 'odd') return { kind: 'ask-git', why: 'packed-refs is large or not a plain file' };
  const packedText = packed.state === 'read' ? packed.text : undefined;
  if (packedText?.includes(' refs/replace/')) return { kind: 'ask-git', why: 'the repository replaces objects' };
  return { kind: 'files', files: { loose, packed: packedText } };
}
