// Walks what a task's overlay layer changed, dir by dir, and decides each entry as `git add --all` would: only the dirs
// present in the upper dir are visited, every other entry is the base tree's own. Deletions, whiteouts and opaque dirs
// need no xattr: an entry of the base that the merged view no longer lists is gone.
import type { Dirent } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import type { BlobHasher } from './blob-hasher';
import type { IgnoreCheck } from './ignore-check';
import { childPath, onDisk } from './layer-paths';
import type { ObjectReader } from './object-reader';
import { MODE_EXECUTABLE, MODE_FILE, MODE_GITLINK, MODE_SYMLINK, MODE_TREE, parseTree, writeLooseObject, type ObjectFormat, type TreeEntries, type TreeEntry } from './tree-object';

/** A dir as the commit will hold it, before its new blobs have names. */
export interface WalkedDir {
  items: Map<string, WalkedItem>;
  /** The base tree of this dir, when the base has one. */
  base?: string;
}

export type WalkedItem =
  | { kind: 'entry'; entry: TreeEntry }
  | { kind: 'dir'; dir: WalkedDir }
  /** A file to hash: `file` is its index in what WalkContext.blobs resolves with. */
  | { kind: 'file'; mode: string; file: number };

export interface WalkContext {
  upperDir: string;
  mergedDir: string;
  reader: ObjectReader;
  ignore: IgnoreCheck;
  format: ObjectFormat;
  objectsDir: string;
  /** Paths never taken from the layer: the base's version or none (vendor-local files). */
  pinned: ReadonlySet<string>;
  /** Hashes files (absolute paths in the merged view) as they are found. */
  blobs: BlobHasher;
  /** The dirs whose base tree was read, for those who watch the cost. */
  treesRead: string[];
}

/** Names git never takes into a tree, at any depth: a repository's own `.git` (at the top, the worktree's link). */
const NEVER = new Set(['.git']);

export async function walkDir(ctx: WalkContext, path: string, baseSha: string | undefined): Promise<WalkedDir> {
  const [base, merged, upper] = await Promise.all([
    baseSha === undefined ? new Map() as TreeEntries : readBaseTree(ctx, path, baseSha),
    readdir(onDisk(ctx.mergedDir, path), { encoding: 'latin1' }),
    readdir(onDisk(ctx.upperDir, path), { encoding: 'latin1', withFileTypes: true }),
  ]);
  const inUpper = new Map<string, Dirent>(upper.map((entry) => [entry.name, entry]));
  const items = new Map<string, WalkedItem>();
  await Promise.all(merged.map(async (name) => {
    if (NEVER.has(name)) return;
    const item = await decide(ctx, childPath(path, name), base.get(name), inUpper.get(name));
    if (item) items.set(name, item);
  }));
  // Vendor-local files stay as the base has them, whatever the layer did with them or their dirs.
  for (const [name, entry] of base) {
    const at = childPath(path, name);
    if (ctx.pinned.has(at)) items.set(name, { kind: 'entry', entry });
    else if (entry.mode === MODE_TREE && !items.has(name) && isPinnedAncestor(ctx, at)) {
      const kept = await pinnedOnly(ctx, at, entry.sha);
      if (kept.items.size > 0) items.set(name, { kind: 'dir', dir: kept });
    }
  }
  return { items, ...(baseSha !== undefined && { base: baseSha }) };
}

/** One entry the merged view lists: `base` is the base tree's entry of that name, `upper` the upper dir's. */
async function decide(ctx: WalkContext, path: string, base: TreeEntry | undefined, upper: Dirent | undefined): Promise<WalkedItem | undefined> {
  if (ctx.pinned.has(path)) return base && { kind: 'entry', entry: base };
  // Not in the layer: the snapshot's, which is the base's checkout; what the base lacks (a copied node_modules) is not kept.
  if (!upper) return base && { kind: 'entry', entry: base };
  const kind = await kindOf(ctx, path, upper);
  if (kind === 'dir') {
    // A submodule's dir: git keeps the gitlink, whatever is inside.
    if (base?.mode === MODE_GITLINK) return { kind: 'entry', entry: base };
    const tracked = base?.mode === MODE_TREE;
    if (!tracked) {
      if (await ctx.ignore.ignored(path, true)) return undefined;
      // Another repository inside (git would record it as a gitlink): left out.
      if (await lstat(onDisk(ctx.mergedDir, `${path}/.git`)).then(() => true, () => false)) return undefined;
    }
    const dir = await walkDir(ctx, path, tracked ? base.sha : undefined);
    return dir.items.size > 0 ? { kind: 'dir', dir } : undefined;
  }
  if (kind === 'other') return undefined;
  const tracked = base !== undefined && base.mode !== MODE_TREE;
  if (!tracked && await ctx.ignore.ignored(path, false)) return undefined;
  if (kind === 'symlink') {
    const target = await readlink(onDisk(ctx.upperDir, path), { encoding: 'buffer' });
    return { kind: 'entry', entry: { mode: MODE_SYMLINK, sha: await writeLooseObject(ctx.objectsDir, 'blob', target, ctx.format) } };
  }
  const info = await lstat(onDisk(ctx.upperDir, path));
  // git records only whether the owner may execute it.
  return { kind: 'file', mode: (info.mode & 0o100) !== 0 ? MODE_EXECUTABLE : MODE_FILE, file: ctx.blobs.add(onDisk(ctx.mergedDir, path)) };
}

async function kindOf(ctx: WalkContext, path: string, entry: Dirent): Promise<'dir' | 'file' | 'symlink' | 'other'> {
  if (entry.isDirectory()) return 'dir';
  if (entry.isFile()) return 'file';
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isFIFO() || entry.isSocket() || entry.isCharacterDevice() || entry.isBlockDevice()) return 'other';
  // A file system that gives no type in its listing.
  const info = await lstat(onDisk(ctx.upperDir, path));
  return info.isDirectory() ? 'dir' : info.isFile() ? 'file' : info.isSymbolicLink() ? 'symlink' : 'other';
}

async function readBaseTree(ctx: WalkContext, path: string, sha: string): Promise<TreeEntries> {
  ctx.treesRead.push(path);
  const object = await ctx.reader.read(sha);
  if (object?.type !== 'tree') throw new Error(`the base tree ${sha} (${path === '' ? 'the top' : path}) cannot be read from the repository`);
  return parseTree(object.body, ctx.format);
}

function isPinnedAncestor(ctx: WalkContext, path: string): boolean {
  for (const pinned of ctx.pinned) if (pinned.startsWith(`${path}/`)) return true;
  return false;
}

/** What a dir the layer deleted still holds for the commit: its vendor-local files. */
async function pinnedOnly(ctx: WalkContext, path: string, sha: string): Promise<WalkedDir> {
  const items = new Map<string, WalkedItem>();
  for (const [name, entry] of await readBaseTree(ctx, path, sha)) {
    const at = childPath(path, name);
    if (ctx.pinned.has(at)) items.set(name, { kind: 'entry', entry });
    else if (entry.mode === MODE_TREE && isPinnedAncestor(ctx, at)) {
      const kept = await pinnedOnly(ctx, at, entry.sha);
      if (kept.items.size > 0) items.set(name, { kind: 'dir', dir: kept });
    }
  }
  return { items };
}
