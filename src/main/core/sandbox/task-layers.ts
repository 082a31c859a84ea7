// A task's files as a copy-on-write layer over a shared, read-only snapshot of its base (issue 41): an overlay whose
// lower dir is the snapshot's checkout and whose upper dir, in the data dir, receives what the task writes. It is
// mounted at the task's worktree path in a namespace of the desk's own (./state-namespace.ts), which every process of
// the task enters; the desk itself reaches the same view through the holder, at `/proc/<pid>/root/<worktree>`.
// The holder is started when the layer is first needed after a start of the desk and ends with the desk, so a crash
// leaves no mount behind; the upper dir stays on disk until the task's worktree is retired.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isWithin } from './sandbox-layout';
import { removeLayerTree } from './state-layers';
import { openStateNamespace, type NamespaceTools, type StateNamespace } from './state-namespace';

/** What is kept of a layer on disk, so that a later start of the desk can mount it again. */
interface LayerFile {
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
  readonly base: string;
  readonly lower: string;
  readonly target: string;
  /** The namespace every process of the task enters. */
  readonly namespace: StateNamespace;
  /** Where the desk reaches `path` (in the worktree) as the task's processes see it. */
  deskPath(path: string): string;
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
  /** How the desk reaches the worktree at `target` when it is a layer mounted now; undefined otherwise. */
  reachOf(target: string): ((path: string) => string) | undefined;
  /** Whether the worktree at `target` is a layer (read from disk: true after a restart too). */
  has(target: string): Promise<boolean>;
  /** Unmounts the layer at `target` and removes it: its worktree is retired. */
  remove(target: string): Promise<void>;
  /** The data dir's folder of layers, for its disk use. */
  readonly dir: string;
  /** Ends every holder: the desk is quitting. */
  close(): void;
}

const LAYER_FILE = 'layer.json';

export function taskLayersDir(dataDir: string): string {
  return join(dataDir, 'task-layers');
}

export function createTaskLayers(deps: {
  dataDir: string;
  tools: NamespaceTools | undefined;
  /** After a task's layer is removed: its snapshot is no longer used by it. */
  onRemoved?(taskId: string): Promise<void>;
}): TaskLayers {
  const dir = taskLayersDir(deps.dataDir);
  const rootOf = (target: string) => join(dir, createHash('sha256').update(target).digest('hex').slice(0, 16));
  const mounted = new Map<string, Promise<MountedTaskLayer>>();
  // The mounted ones by worktree path, for the policy's synchronous look-ups.
  const byTarget = new Map<string, MountedTaskLayer>();
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
    const namespace = await openStateNamespace(deps.tools, [{ lower: layer.lower, upper: upperDir, work, target: layer.target }]);
    const proc = `/proc/${namespace.pid}/root`;
    const layerOf: MountedTaskLayer = {
      upperDir, base: layer.base, lower: layer.lower, target: layer.target, namespace,
      deskPath: (path) => {
        if (!isWithin(path, layer.target)) throw new Error(`${path} is not in the task's worktree ${layer.target}`);
        return `${proc}${path}`;
      },
    };
    byTarget.set(layer.target, layerOf);
    return layerOf;
  };

  const unmount = async (target: string) => {
    const pending = mounted.get(target);
    mounted.delete(target);
    const layer = await pending?.catch(() => undefined);
    layer?.namespace.close();
    if (layer && byTarget.get(layer.target) === layer) byTarget.delete(layer.target);
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
      await unmount(target);
      const root = rootOf(target);
      await removeLayerTree(root);
      const upper = join(root, 'upper');
      await mkdir(upper, { recursive: true, mode: 0o700 });
      await Promise.all(Object.entries(seed).map(([path, text]) => writeFile(join(upper, path), text)));
      // Written last: a layer without its file is no layer, and the next create or remove clears it.
      await writeFile(join(root, LAYER_FILE), JSON.stringify({ taskId, base, lower, target } satisfies LayerFile));
    },
    async open(target) {
      const current = mounted.get(target);
      const layer = current ? await current.catch(() => undefined) : undefined;
      if (layer?.namespace.alive()) return layer;
      const file = await readLayerFile(target);
      if (!file) return undefined;
      const pending = mount(file);
      mounted.set(target, pending);
      pending.catch(() => mounted.delete(target));
      return pending;
    },
    reachOf(target) {
      const layer = byTarget.get(target);
      return layer?.namespace.alive() ? layer.deskPath : undefined;
    },
    has: async (target) => (await readLayerFile(target)) !== undefined,
    async remove(target) {
      const file = await readLayerFile(target);
      await unmount(target);
      await removeLayerTree(rootOf(target));
      if (file) await deps.onRemoved?.(file.taskId);
    },
    close() {
      for (const pending of mounted.values()) void pending.then((layer) => layer.namespace.close(), () => undefined);
      mounted.clear();
      byTarget.clear();
    },
  };
}

function readTextIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
