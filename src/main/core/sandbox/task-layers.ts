// A task's files as a copy-on-write layer over a shared, read-only snapshot of its base (issue 41): an overlay whose
// lower dir is the snapshot's checkout and whose upper dir, in the data dir, receives what the task writes. It is
// mounted at the task's worktree path in a namespace of the desk's own (./state-namespace.ts), which every process of
// the task enters; the desk itself reaches the same view through the holder, at `/proc/<pid>/root/<worktree>`.
// The holder is started when the layer is first needed after a start of the desk and ends with the desk, so a crash
// leaves no mount behind; the upper dir stays on disk until the task's worktree is retired.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isWithin } from './sandbox-layout';
import { removeLayerTree } from './state-layers';
import { taskKey } from './state-layer-plan';
import { openStateNamespace, type NamespaceTools, type StateNamespace } from './state-namespace';

/** What is kept of a layer on disk, so that a later start of the desk can mount it again. */
interface LayerFile {
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
  /** Makes the task's layer over `lower`, shown at `target`, with `seed` files (relative path → text) in it; an earlier one is removed first. */
  create(taskId: string, request: LayerFile & { seed: Readonly<Record<string, string>> }): Promise<void>;
  /** The task's layer, mounted (its holder started when none runs); undefined when the task has none. */
  open(taskId: string): Promise<MountedTaskLayer | undefined>;
  /** Whether the task's worktree is a layer (read from disk: true after a restart too). */
  has(taskId: string): Promise<boolean>;
  /** Unmounts the task's layer and removes it: its worktree is retired. */
  remove(taskId: string): Promise<void>;
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
  const rootOf = (taskId: string) => join(dir, taskKey(taskId));
  const mounted = new Map<string, Promise<MountedTaskLayer>>();
  let refusal: Promise<string | undefined> | undefined;

  const readLayerFile = async (taskId: string): Promise<LayerFile | undefined> => {
    const text = await readFile(join(rootOf(taskId), LAYER_FILE), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    const parsed = JSON.parse(text) as Partial<LayerFile>;
    const { base, lower, target } = parsed;
    return typeof base === 'string' && typeof lower === 'string' && typeof target === 'string' ? { base, lower, target } : undefined;
  };

  const mount = async (taskId: string, layer: LayerFile): Promise<MountedTaskLayer> => {
    if (!deps.tools) throw new Error('unshare and nsenter (util-linux) are not on PATH');
    const root = rootOf(taskId);
    const upperDir = join(root, 'upper');
    const work = join(root, 'work');
    await Promise.all([mkdir(upperDir, { recursive: true, mode: 0o700 }), mkdir(work, { recursive: true, mode: 0o700 }), mkdir(layer.target, { recursive: true })]);
    const namespace = await openStateNamespace(deps.tools, [{ lower: layer.lower, upper: upperDir, work, target: layer.target }]);
    const proc = `/proc/${namespace.pid}/root`;
    return {
      upperDir, base: layer.base, lower: layer.lower, target: layer.target, namespace,
      deskPath: (path) => {
        if (!isWithin(path, layer.target)) throw new Error(`${path} is not in the task's worktree ${layer.target}`);
        return `${proc}${path}`;
      },
    };
  };

  const unmount = async (taskId: string) => {
    const pending = mounted.get(taskId);
    mounted.delete(taskId);
    (await pending?.catch(() => undefined))?.namespace.close();
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
    async create(taskId, { base, lower, target, seed }) {
      await unmount(taskId);
      const root = rootOf(taskId);
      await removeLayerTree(root);
      const upper = join(root, 'upper');
      await mkdir(upper, { recursive: true, mode: 0o700 });
      await Promise.all(Object.entries(seed).map(([path, text]) => writeFile(join(upper, path), text)));
      // Written last: a layer without its file is no layer, and the next create or remove clears it.
      await writeFile(join(root, LAYER_FILE), JSON.stringify({ base, lower, target } satisfies LayerFile));
    },
    async open(taskId) {
      const current = mounted.get(taskId);
      const layer = current ? await current.catch(() => undefined) : undefined;
      if (layer?.namespace.alive()) return layer;
      const file = await readLayerFile(taskId);
      if (!file) return undefined;
      const pending = mount(taskId, file);
      mounted.set(taskId, pending);
      pending.catch(() => mounted.delete(taskId));
      return pending;
    },
    has: async (taskId) => (await readLayerFile(taskId)) !== undefined,
    async remove(taskId) {
      await unmount(taskId);
      await removeLayerTree(rootOf(taskId));
      await deps.onRemoved?.(taskId);
    },
    close() {
      for (const pending of mounted.values()) void pending.then((layer) => layer.namespace.close(), () => undefined);
      mounted.clear();
    },
  };
}
