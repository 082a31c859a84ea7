// What a loose object is, read from its file's first bytes without starting git: whether it is an annotated tag, and
// if so the object it tags. Objects in packs are not read here (their caller asks git).
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as Zlib from 'node:zlib';

// Loaded on first use: the desk's start reads no object, and zlib's modules cost it ~0.7 ms.
const loadZlib = (): typeof Zlib => createRequire(import.meta.url)('node:zlib') as typeof Zlib;

/** Enough compressed bytes for a tag's header and `object` line. */
const HEAD_BYTES = 512;

/**
 * `null` when the loose object `name` in `objectsDir` is no annotated tag, the object it tags when it is one (once:
 * a tag of a tag gives the inner tag, as `%(*objectname)` does), undefined when there is no such loose file or it
 * does not read as git writes one.
 */
export async function looseDeref(objectsDir: string, name: string): Promise<string | null | undefined> {
  const handle = await open(join(objectsDir, name.slice(0, 2), name.slice(2)), constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    // A partial inflate: the file's first bytes give its first bytes of text.
    const zlib = loadZlib();
    const text = zlib.inflateSync(buffer.subarray(0, bytesRead), { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString('latin1');
    return derefFromText(text, name.length);
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** The deref of an object whose inflated text starts with `text` (`<type> <size>\0<body>`). */
export function derefFromText(text: string, nameLength: number): string | null | undefined {
  const header = /^(commit|tree|blob|tag) \d+\0/.exec(text);
  if (!header) return undefined;
  if (header[1] !== 'tag') return null;
  return new RegExp(`^object ([0-9a-f]{${nameLength}})\\n`).exec(text.slice(header[0].length))?.[1];
}
