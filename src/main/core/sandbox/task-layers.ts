// A task's files as a copy-on-write layer over a shared, read-only snapshot of its base (issue 41): an overlay whose
// lower dir is the snapshot's checkout and whose upper dir, in the data dir, receives what the task writes. It is
// mounted at the task's worktree path in a namespace of the desk's own (./state-namespace.ts), which every process of
// the task enters; the desk itself reaches the same view through the holder, at `/proc/<pid>/root/<worktree>`.
// The holder is started when the layer is first needed after a start of the desk and ends with the desk, so a crash
// leaves no mount behind; the upper dir stays on disk until the task's worktree is retired (or, should a crash leave it
// behind, until the start-up sweep finds no worktree uses it: ./layer-sweep.ts). A layer may be lent to another mount
// (a local Docker daemon's volume, ../runners/docker/layer-volume.ts): one overlay on an upper dir at a time.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { deskError } from '../../../shared/desk-error';
import { isWithin } from './sandbox-layout';
import { removeLayerTree } from './state-layers';
import { openStateNamespace, type NamespaceTools, type StateNamespace } from './state-namespace';
import type { SpareProcesses } from '../host/spare-processes';

/** What is kept of a layer on disk, so that a later start of the desk can mount it again. */
export interface LayerFile {
  /** The task that made it (an attempt's worktree is kept by its task later): it holds the lease on the snapshot. */
  taskId: string;
  /** The commit the snapshot is a checkout of. */
  base: string;
  /** The snapshot's checkout, read-only. */
  lower: string;
  /** The task's worktree path, where the overlay is shown. */
  target: string;
}

export interface MountedTaskLayer {
  /** What the task wrote: new and changed files, whiteouts for deletions (read, never written, by the desk). */
  readonly upperDir: string;
  /** The layer's own folder in the data dir (its upper dir is in it): where the desk keeps its notes on the layer, out of the task's reach, removed with it. */
  readonly dir: string;
  readonly base: string;
  readonly lower: string;
  readonly target: string;
  /** The namespace every process of the task enters. */
  readonly namespace: StateNamespace;
  /** Where the desk reaches `path` (in the worktree) as the task's processes see it. */
  deskPath(path: string): string;
}

/** A folder of the data dir's layers, as the start-up sweep finds it. */
export interface ListedLayer {
  /** Its folder's name in `dir`. */
  name: string;
  /** A layer whose removal was decided (`.removing-…`): a crash stopped it part way. */
  removing: boolean;
  /** Its layer.json; undefined with `problem` when it could not be read. */
  file?: LayerFile;
  problem?: string;
}

/** A layer lent to a mount of another's (a Docker volume): the holder's mount is gone until it is given back. */
export interface LentLayer {
  readonly upperDir: string;
  readonly lower: string;
  readonly base: string;
  /** The borrower's own work dir, beside the holder's on the upper dir's file system (an overlay needs one there). */
  readonly workDir: string;
  /** How the desk reaches a path of the worktree through the borrower's mount; undefined while none can. */
  reachThrough(reach: ((path: string) => string) | undefined): void;
  /** The borrower's mount is gone: the layer is mounted by its holder again when next needed. */
  giveBack(): void;
}

export interface TaskLayers {
  /** undefined where layers can be mounted, else why not (found once, by mounting a small overlay). */
  refusal(): Promise<string | undefined>;
  /**
   * Makes a layer over `lower`, shown at `target` (a task's worktree path, which names the layer from then on), with
   * `seed` files (relative path → text) in it; an earlier one at that path is removed first.
   */
  create(request: LayerFile & { seed: Readonly<Record<string, string>> }): Promise<void>;
  /** The layer shown at worktree `target`, mounted (its holder started when none runs); undefined when that worktree is no layer. */
  open(target: string): Promise<MountedTaskLayer | undefined>;
  /** How the desk reaches the worktree at `target` when it is a layer mounted now (or lent, through the borrower); undefined otherwise. */
  reachOf(target: string): ((path: string) => string) | undefined;
  /**
   * Unmounts the layer at `target` (its holder ends) for another mount of it; undefined when that worktree is no layer.
   * While lent, `open` gives the layer as the borrower's mount shows it, or refuses (`layer_lent`) while none does.
   */
  lend(target: string): Promise<LentLayer | undefined>;
  /** Whether the worktree at `target` is a layer (read from disk: true after a restart too). */
  has(target: string): Promise<boolean>;
  /** Where the task's writes in the worktree at `target` land when it is a layer (its upper dir); undefined otherwise. */
  upperOf(target: string): Promise<string | undefined>;
  /** The folder of the layer shown at `target` (its `dir` once mounted), without mounting it; undefined when that worktree is no layer. */
  dirOf(target: string): Promise<string | undefined>;
  /** Unmounts the layer at `target` and removes it: its worktree is retired. */
  remove(target: string): Promise<void>;
  /** Every layer's folder, read for the start-up sweep (the refusal's probe and other dot names left out). */
  list(): Promise<ListedLayer[]>;
  /** Moves the layer in folder `name` out of use (unmounted, renamed `.removing-…`); `clearRemoved` deletes it. */
  discard(name: string): Promise<void>;
  /** Deletes what `discard`, `remove` or a crash left renamed `.removing-…`. */
  clearRemoved(): Promise<void>;
  /** The data dir's folder of layers, for its disk use. */
  readonly dir: string;
  /** Ends every holder: the desk is quitting. */
  close(): void;
}

const LAYER_FILE = 'layer.json';
/** A layer's folder: a hash of its worktree path (see rootOf). */
const LAYER_NAME = /^[0-9a-f]{16}$/;
/** A layer's folder whose removal was decided. */
const REMOVING = '.removing-';

/** A layer.json as written by `create`; throws, saying what is wrong, for anything else. */
function parseLayerFile(text: string): LayerFile {
  const { taskId, base, lower, target } = JSON.parse(text) as Partial<LayerFile>;
  for (const [key, value] of Object.entries({ taskId, base, lower, target })) {
    if (typeof value !== 'string' || value === '') throw new Error(`its "${key}" is missing`);
  }
  return { taskId, base, lower, target } as LayerFile;
}
/** The work dir of a borrower's mount, beside the holder's `work`. */
const LENT_WORK = 'lent-work';
/** How long an ended holder's mount may take to go (the holder is killed: a few ms). */
const HOLDER_END_LIMIT_MS = 3000;

export function taskLayersDir(dataDir: string): string {
  return join(dataDir, 'task-layers');
}

export function createTaskLayers(deps: {
  dataDir: string;
  tools: NamespaceTools | undefined;
  /** Processes started ahead of need, which a layer's holder is taken from (../host/spare-processes.ts). */
  spares?: Pick<SpareProcesses, 'take'>;
  /** After a task's layer is removed: its snapshot is no longer used by it. */
  onRemoved?(taskId: string): Promise<void>;
}): TaskLayers {
  const dir = taskLayersDir(deps.dataDir);
  const rootOf = (target: string) => join(dir, createHash('sha256').update(target).digest('hex').slice(0, 16));
  const mounted = new Map<string, Promise<MountedTaskLayer>>();
  // The mounted ones by worktree path, for the policy's synchronous look-ups.
  const byTarget = new Map<string, MountedTaskLayer>();
  // Lent layers by worktree path, with how the borrower's mount is reached now.
  const lent = new Map<string, { layer: LayerFile & { upperDir: string }; reach?: (path: string) => string }>();
  let refusal: Promise<string | undefined> | undefined;

  // Blocking, like the mkdirs before a mount: microseconds, where the thread pool may be queued behind a run's other
  // files for milliseconds while the holder waits to start (./task-sandbox.ts opens the layer beside its git dir).
  const readLayerFile = async (target: string): Promise<LayerFile | undefined> => {
    const text = readTextIfThere(join(rootOf(target), LAYER_FILE));
    if (text === undefined) return undefined;
    const { taskId, base, lower } = JSON.parse(text) as Partial<LayerFile>;
    return typeof taskId === 'string' && typeof base === 'string' && typeof lower === 'string' ? { taskId, base, lower, target } : undefined;
  };

  const mount = async (layer: LayerFile): Promise<MountedTaskLayer> => {
    if (!deps.tools) throw new Error('unshare and nsenter (util-linux) are not on PATH');
    const root = rootOf(layer.target);
    const upperDir = join(root, 'upper');
    const work = join(root, 'work');
    mkdirSync(upperDir, { recursive: true, mode: 0o700 });
    mkdirSync(work, { recursive: true, mode: 0o700 });
    mkdirSync(layer.target, { recursive: true });
    const namespace = await openStateNamespace(deps.tools, [{ lower: layer.lower, upper: upperDir, work, target: layer.target }], undefined, deps.spares);
    const proc = `/proc/${namespace.pid}/root`;
    const layerOf: MountedTaskLayer = {
      upperDir, dir: root, base: layer.base, lower: layer.lower, target: layer.target, namespace,
      deskPath: (path) => {
        if (!isWithin(path, layer.target)) throw new Error(`${path} is not in the task's worktree ${layer.target}`);
        return `${proc}${path}`;
      },
    };
    byTarget.set(layer.target, layerOf);
    return layerOf;
  };

  /** Renames a layer's folder out of the way first, so a crash part way through its deletion leaves no half layer. */
  const setAside = async (root: string): Promise<string | undefined> => {
    const removing = join(dir, `${REMOVING}${basename(root)}-${randomUUID()}`);
    return rename(root, removing).then(() => removing, (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
  };

  const unmount = async (target: string) => {
    const pending = mounted.get(target);
    mounted.delete(target);
    const layer = await pending?.catch(() => undefined);
    layer?.namespace.close();
    if (layer && byTarget.get(layer.target) === layer) byTarget.delete(layer.target);
    return layer;
  };

  /** The lent layer as the borrower's mount shows it: read and written through it; nothing enters it from here. */
  const borrowed = (target: string): MountedTaskLayer => {
    const entry = lent.get(target);
    const reach = entry?.reach;
    if (!entry || !reach) {
      throw deskError('conflict', 'layer_lent', `The task's files at ${target} are mounted for its Docker containers and cannot be read until one runs; try again once its run has started, or when its turn ends.`);
    }
    const { layer } = entry;
    return {
      upperDir: layer.upperDir, dir: rootOf(target), base: layer.base, lower: layer.lower, target,
      namespace: {
        pid: 0,
        alive: () => lent.get(target) === entry,
        enter: () => { throw deskError('conflict', 'layer_lent', `The task's files at ${target} are in its Docker containers until its turn ends.`); },
        close: () => undefined,
      },
      deskPath: (path) => {
        if (!isWithin(path, target)) throw new Error(`${path} is not in the task's worktree ${target}`);
        return reach(path);
      },
    };
  };

  return {
    dir,
    refusal() {
      refusal ??= (async () => {
        if (!deps.tools) return 'unshare and nsenter (util-linux) are not on PATH';
        const probe = join(dir, '.probe');
        try {
          await removeLayerTree(probe);
          await Promise.all(['lower', 'upper', 'work', 'merged'].map((name) => mkdir(join(probe, name), { recursive: true })));
          const namespace = await openStateNamespace(deps.tools, [{ lower: join(probe, 'lower'), upper: join(probe, 'upper'), work: join(probe, 'work'), target: join(probe, 'merged') }]);
          namespace.close();
          return undefined;
        } catch (error) {
          return error instanceof Error ? error.message : String(error);
        } finally {
          await removeLayerTree(probe).catch(() => undefined);
        }
      })();
      return refusal;
    },
    async create({ taskId, base, lower, target, seed }) {
      lent.delete(target);
      if (mounted.has(target)) await unmount(target);
      const root = rootOf(target);
      // What an earlier layer at this worktree left goes first; a new worktree's (the usual case) has nothing to remove.
      if (existsSync(root)) await removeLayerRoot(dir, root);
      // Blocking, like the layer file's read: a folder and two small files, on every layered task's way to its start.
      const upper = join(root, 'upper');
      mkdirSync(upper, { recursive: true, mode: 0o700 });
      for (const [path, text] of Object.entries(seed)) writeFileSync(join(upper, path), text);
      // Written last: a layer without its file is no layer, and the next create or remove clears it.
      writeFileSync(join(root, LAYER_FILE), JSON.stringify({ taskId, base, lower, target } satisfies LayerFile));
    },
    async open(target) {
      if (lent.has(target)) return borrowed(target);
      const current = mounted.get(target);
      const layer = current ? await current.catch(() => undefined) : undefined;
      if (layer?.namespace.alive()) return layer;
      const file = await readLayerFile(target);
      if (!file) return undefined;
      // Lent while the file was read: the borrower's mount is the only one.
      if (lent.has(target)) return borrowed(target);
      const pending = mount(file);
      mounted.set(target, pending);
      pending.catch(() => mounted.delete(target));
      return pending;
    },
    reachOf(target) {
      if (lent.has(target)) return lent.get(target)?.reach;
      const layer = byTarget.get(target);
      return layer?.namespace.alive() ? layer.deskPath : undefined;
    },
    async lend(target) {
      const file = await readLayerFile(target);
      if (!file) return undefined;
      // Asked after the read, with nothing awaited until it is set below: two lends never both pass.
      if (lent.has(target)) throw new Error(`The layer at ${target} is lent already`);
      const root = rootOf(target);
      const upperDir = join(root, 'upper');
      const workDir = join(root, LENT_WORK);
      // Lent before the holder goes: an `open` meanwhile must not mount the layer again.
      const entry: { layer: LayerFile & { upperDir: string }; reach?: (path: string) => string } = { layer: { ...file, upperDir } };
      lent.set(target, entry);
      try {
        const holder = await unmount(target);
        // The mount goes with the holder's namespace: the borrower mounts once it has.
        for (const started = Date.now(); holder?.namespace.alive() && Date.now() - started < HOLDER_END_LIMIT_MS;) await new Promise((resolve) => { setTimeout(resolve, 10); });
        if (holder?.namespace.alive()) throw new Error(`the layer's holder (process ${holder.namespace.pid}) did not end`);
        await Promise.all([mkdir(upperDir, { recursive: true, mode: 0o700 }), mkdir(workDir, { recursive: true, mode: 0o700 })]);
      } catch (error) {
        lent.delete(target);
        throw error;
      }
      return {
        upperDir, lower: file.lower, base: file.base, workDir,
        reachThrough: (reach) => {
          if (lent.get(target) !== entry) return;
          if (reach) entry.reach = reach;
          else delete entry.reach;
        },
        giveBack: () => { if (lent.get(target) === entry) lent.delete(target); },
      };
    },
    has: async (target) => (await readLayerFile(target)) !== undefined,
    upperOf: async (target) => ((await readLayerFile(target)) === undefined ? undefined : join(rootOf(target), 'upper')),
    dirOf: async (target) => ((await readLayerFile(target)) === undefined ? undefined : rootOf(target)),
    async remove(target) {
      const file = await readLayerFile(target);
      lent.delete(target);
      await unmount(target);
      const removing = await setAside(rootOf(target));
      if (file) await deps.onRemoved?.(file.taskId);
      // What a root daemon's mount left (its work dir) may not be this desk's to delete: it stays aside, tried again by clearRemoved.
      if (removing !== undefined) await removeLayerTree(removing).catch(() => undefined);
    },
    async list() {
      const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      });
      return Promise.all(names.filter((name) => LAYER_NAME.test(name) || name.startsWith(REMOVING)).map(async (name): Promise<ListedLayer> => {
        const removing = name.startsWith(REMOVING);
        try {
          const file = parseLayerFile(await readFile(join(dir, name, LAYER_FILE), 'utf8'));
          if (!removing && rootOf(file.target) !== join(dir, name)) return { name, removing, problem: `its ${LAYER_FILE} names a worktree (${file.target}) whose layer is another folder` };
          return { name, removing, file };
        } catch (error) {
          return { name, removing, problem: (error as NodeJS.ErrnoException).code === 'ENOENT' ? `it has no ${LAYER_FILE}` : `its ${LAYER_FILE} cannot be read (${error instanceof Error ? error.message : String(error)})` };
        }
      }));
    },
    async discard(name) {
      if (!LAYER_NAME.test(name)) throw new Error(`${name} is not a layer's folder`);
      const layer = [...byTarget.values()].find((mountedLayer) => rootOf(mountedLayer.target) === join(dir, name));
      if (layer) await unmount(layer.target);
      await setAside(join(dir, name));
    },
    async clearRemoved() {
      const names = await readdir(dir).catch(() => []);
      // What a root daemon's mount left there may not be this desk's to delete (../runners/docker/layer-volume.ts): kept for the next try.
      for (const name of names.filter((entry) => entry.startsWith(REMOVING))) await removeLayerTree(join(dir, name)).catch(() => undefined);
    },
    close() {
      for (const pending of mounted.values()) void pending.then((layer) => layer.namespace.close(), () => undefined);
      mounted.clear();
      byTarget.clear();
      lent.clear();
    },
  };
}

/**
 * Removes a layer's folder. A root Docker daemon's work dir in it (`lent-work/work`, mode 000, root's) cannot be removed
 * by a desk that is not root: the folder is then moved aside as `.left-<random>` in the layers' folder (a few empty
 * directories), so neither the retirement nor a new layer at that worktree path fails on it (docs/runners.md).
 */
async function removeLayerRoot(layersDir: string, root: string): Promise<void> {
  try {
    await removeLayerTree(root);
  } catch (error) {
    const aside = join(layersDir, `.left-${randomBytes(6).toString('hex')}`);
    await rename(root, aside).catch(() => { throw error; });
    await removeLayerTree(aside).catch(() => undefined);
  }
}

function readTextIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
