// The tree `git add --all` would commit in a task whose files are an overlay layer over a snapshot of its base commit,
// computed from the layer: what it costs grows with what the task changed, not with the repository.
import { readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeskError } from '../../../shared/desk-error';
import { createBlobHasher } from './blob-hasher';
import type { GitRepo, GitRunner } from './git-runner';
import { createIgnoreCheck, type SnapshotRules } from './ignore-check';
import { walkDir, type WalkContext, type WalkedDir } from './layer-walk';
import type { KnownObjects } from './known-objects';
import { createObjectReader, type ObjectReader } from './object-reader';
import { formatTree, MODE_TREE, objectFormatOf, writeLooseObject, type ObjectFormat, type TreeEntries, type TreeEntry } from './tree-object';
import { VENDOR_LOCAL_FILES } from './vendor-local-files';

/** A task's overlay as the desk reaches it. */
export interface LayerView {
  /** The layer's upper dir in the data dir: what the task created or changed, whiteouts for what it deleted. */
  upperDir: string;
  /** The merged view as the desk reaches it from outside the namespace, e.g. `/proc/<holder pid>/root/<worktree>`. */
  mergedDir: string;
}

export interface LayerTreeRequest {
  git: GitRunner;
  /** The task's repository: its git dir (and common dir); the work tree is the layer, so `workTree` is not used. */
  repo: GitRepo;
  view: LayerView;
  /** The tree of the commit the snapshot below the layer is a checkout of (a full object name). */
  baseTree: string;
  /** Where a stand-in work tree for the ignore rules is made and removed again (default: the system's temp dir). */
  scratchDir?: string;
  /** Trees and commits read before (./known-objects.ts): a commit on a base read before starts no git to read them. */
  known?: KnownObjects;
  /** The snapshot below the layer, whose kept git answers for ignore rules the task did not change (./ignore-check.ts). */
  snapshot?: Omit<SnapshotRules, 'upperDir'>;
}

export interface LayerTreeResult {
  /** The full name of the tree, written to the repository's objects. */
  tree: string;
  /** The dirs whose base trees were read ('' for the top): the ancestors of what changed, and no more. */
  baseTreesRead: string[];
}

/** The tree `git add --all` (less vendor-local files) would commit from the layer, with what it read to get there. */
export async function buildLayerTree(request: LayerTreeRequest, reader?: ObjectReader): Promise<LayerTreeResult> {
  // A layer with nothing in it is the snapshot as it was: its base tree, without one git process.
  if ((await readdir(request.view.upperDir)).length === 0) return { tree: request.baseTree, baseTreesRead: [] };
  await stat(request.view.mergedDir).catch((error: NodeJS.ErrnoException) => {
    throw new DeskError('unavailable', 'layer_not_mounted', `The task's files cannot be read at ${request.view.mergedDir} (${error.code ?? error.message}): its overlay is not mounted there, or the process holding it has ended. Nothing was committed; start the task's namespace again.`, { mergedDir: request.view.mergedDir });
  });
  const ownReader = reader ?? createObjectReader(request.git, request.repo, request.known);
  const ignore = createIgnoreCheck(request.git, withoutWorkTree(request.repo), request.view.mergedDir, request.scratchDir ?? tmpdir(), request.snapshot && { ...request.snapshot, upperDir: request.view.upperDir });
  const format = objectFormatOf(request.baseTree);
  const objectsDir = join(request.repo.commonDir ?? request.repo.gitDir, 'objects');
  const ctx: WalkContext = {
    upperDir: request.view.upperDir,
    mergedDir: request.view.mergedDir,
    reader: ownReader,
    ignore,
    format,
    objectsDir,
    pinned: new Set(VENDOR_LOCAL_FILES.map((file) => file.path)),
    blobs: createBlobHasher(request.git, request.repo, objectsDir, format),
    treesRead: [],
  };
  try {
    const top = await walkDir(ctx, '', request.baseTree);
    const [blobs] = await Promise.all([ctx.blobs.finish(), ignore.close(), reader ? undefined : ownReader.close()]);
    const tree = (await writeDir(ctx.objectsDir, format, top, blobs, true)) as TreeEntry;
    return { tree: tree.sha, baseTreesRead: ctx.treesRead };
  } catch (error) {
    ctx.blobs.kill();
    await Promise.allSettled([ignore.close(), reader ? undefined : ownReader.close()]);
    throw error;
  }
}

/** The layer's tree, for the live diff (taskDiff against the task's base). */
export async function layerTree(request: LayerTreeRequest): Promise<string> {
  return (await buildLayerTree(request)).tree;
}

/** Writes the trees of `dir` bottom up; undefined for a dir left empty (git keeps no empty dir), except the top. */
async function writeDir(objectsDir: string, format: ObjectFormat, dir: WalkedDir, blobs: readonly string[], top = false): Promise<TreeEntry | undefined> {
  const entries: TreeEntries = new Map();
  await Promise.all([...dir.items].map(async ([name, item]) => {
    if (item.kind === 'entry') entries.set(name, item.entry);
    else if (item.kind === 'file') entries.set(name, { mode: item.mode, sha: blobs[item.file] as string });
    else {
      const sub = await writeDir(objectsDir, format, item.dir, blobs);
      if (sub) entries.set(name, sub);
    }
  }));
  if (entries.size === 0 && !top) return undefined;
  return { mode: MODE_TREE, sha: await writeLooseObject(objectsDir, 'tree', formatTree(entries), format, dir.base) };
}

function withoutWorkTree(repo: GitRepo): GitRepo {
  return { gitDir: repo.gitDir, ...(repo.commonDir !== undefined && { commonDir: repo.commonDir }) };
}
