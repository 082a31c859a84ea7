// git's tree objects as bytes: reading one (from cat-file --batch), and writing one or a blob as a loose object without
// starting git. Names are kept as latin1 strings, one char per byte, so any file name git can hold comes back unchanged.
import { createHash, randomUUID } from 'node:crypto';
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflate, deflateSync, inflateSync } from 'node:zlib';

const deflateAsync = promisify(deflate);
/** Past this many bytes an object is compressed in the thread pool, not on the desk's thread. */
const DEFLATE_INLINE_MAX = 64 * 1024;

/** An object of the repository: its full name, its type and its body (without git's header). */
export interface GitObject { sha: string; type: string; body: Buffer }

export const MODE_TREE = '40000';
export const MODE_FILE = '100644';
export const MODE_EXECUTABLE = '100755';
export const MODE_SYMLINK = '120000';
export const MODE_GITLINK = '160000';

/** One entry of a tree: its mode as git writes it (`40000` for a tree), the object's name in hex. */
export interface TreeEntry { mode: string; sha: string }

/** A tree's entries by name (latin1). */
export type TreeEntries = Map<string, TreeEntry>;

/** The repository's object format, known from the length of any object name in it. */
export interface ObjectFormat { algorithm: 'sha1' | 'sha256'; bytes: number }

export function objectFormatOf(sha: string): ObjectFormat {
  if (/^[0-9a-f]{40}$/.test(sha)) return { algorithm: 'sha1', bytes: 20 };
  if (/^[0-9a-f]{64}$/.test(sha)) return { algorithm: 'sha256', bytes: 32 };
  throw new Error(`${sha} is not a full object name; pass the tree's full sha`);
}

/** The entries of a tree object's body: `<mode> <name>\0<raw name>` each. */
export function parseTree(body: Buffer, format: ObjectFormat): TreeEntries {
  const entries: TreeEntries = new Map();
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    const nul = body.indexOf(0, space);
    if (space === -1 || nul === -1 || nul + 1 + format.bytes > body.length) throw new Error('a tree object read from git is malformed');
    entries.set(body.toString('latin1', space + 1, nul), { mode: body.toString('latin1', at, space), sha: body.toString('hex', nul + 1, nul + 1 + format.bytes) });
    at = nul + 1 + format.bytes;
  }
  return entries;
}

/** The body of a tree holding `entries`, in git's order: names compared bytewise, a tree's as if it ended with `/`. */
export function formatTree(entries: TreeEntries): Buffer {
  const key = (name: string, entry: TreeEntry) => (entry.mode === MODE_TREE ? `${name}/` : name);
  const sorted = [...entries].sort(([a, x], [b, y]) => {
    const ka = key(a, x);
    const kb = key(b, y);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  return Buffer.concat(sorted.flatMap(([name, entry]) => [Buffer.from(`${entry.mode} ${name}\0`, 'latin1'), Buffer.from(entry.sha, 'hex')]));
}

/**
 * Writes `body` as a loose object into `objectsDir` the way git does (zlib, a temporary file renamed into place, read
 * only) unless a loose one of that name is there already; returns its name. `existing`: the name of an object known to
 * be in the repository (e.g. the base's tree of the same dir), not written again when it is this one. One already
 * packed is otherwise written again loose, which git's own gc tidies.
 */
export async function writeLooseObject(objectsDir: string, type: 'blob' | 'tree', body: Buffer, format: ObjectFormat, existing?: string): Promise<string> {
  const header = Buffer.from(`${type} ${body.length}\0`, 'latin1');
  const sha = createHash(format.algorithm).update(header).update(body).digest('hex');
  if (sha === existing) return sha;
  const dir = join(objectsDir, sha.slice(0, 2));
  const file = join(dir, sha.slice(2));
  if (await access(file).then(() => true, () => false)) return sha;
  await mkdir(dir, { recursive: true });
  const temporary = join(dir, `tmp_obj_desk_${randomUUID()}`);
  try {
    const whole = Buffer.concat([header, body]);
    await writeFile(temporary, whole.length > DEFLATE_INLINE_MAX ? await deflateAsync(whole) : deflateSync(whole), { mode: 0o444 });
    await rename(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
  return sha;
}

/**
 * A loose object of the repository read by the desk itself (the desk's own commits and trees are loose until git packs
 * them); undefined when there is no such file or it is not one git would read, for git to answer instead.
 */
export async function readLooseObject(objectsDir: string, sha: string): Promise<{ type: string; body: Buffer } | undefined> {
  const packed = await readFile(join(objectsDir, sha.slice(0, 2), sha.slice(2))).catch(() => undefined);
  if (packed === undefined) return undefined;
  let whole: Buffer;
  try {
    whole = inflateSync(packed);
  } catch {
    return undefined;
  }
  const nul = whole.indexOf(0);
  const header = /^(blob|tree|commit|tag) (\d+)$/.exec(whole.subarray(0, Math.max(nul, 0)).toString('latin1'));
  if (nul < 0 || !header || Number(header[2]) !== whole.length - nul - 1) return undefined;
  return { type: header[1] as string, body: whole.subarray(nul + 1) };
}

