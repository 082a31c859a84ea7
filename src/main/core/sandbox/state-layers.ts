// Each task's own layer of its agent's state (./state-layer-plan.ts): the task sees the state as the person has it
// (logins, settings, extensions), and what it writes there lands in its layer, kept for its later turns and seen by no
// other task and never by the person, except the agent's login files, which are handed back when they changed. Over
// the person's dirs an overlay where the kernel lets the desk mount one (./state-namespace.ts), else a copy per task.
import { constants } from 'node:fs';
import { chmod, cp, lstat, mkdir, open, readdir, realpath, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import type { Mount } from './bwrap-arguments';
import { layerPathOf, overlayNameable, planStateLayer, stateLayersDir, taskKey, type LayeredDir, type StateLayerPlan } from './state-layer-plan';
import { openStateNamespace, type NamespaceTools, type StateNamespace } from './state-namespace';
import type { SpareProcesses } from '../host/spare-processes';
import { digestOf, replaceFile } from './state-scratch';
import { isWithin } from './sandbox-layout';

/** No login file is bigger; a bigger one is not the agent's login and is not handed back. */
const MAX_LOGIN_FILE_BYTES = 1024 * 1024;

export interface StateLayerRequest {
  taskId: string;
  agentId: string;
  /** Absolute, `~` expanded; each exists on the host (the sandbox makes them). */
  stateDirs: readonly string[];
  stateFiles: readonly string[];
  loginFiles: readonly string[];
  /** The task's first turn: its layer from an earlier submission of the same id is thrown away first. */
  fresh: boolean;
  log(line: string): void;
  /** The namespace holding the task's worktree layer (./task-layers.ts): the state overlays are mounted in a copy of it. */
  within?: StateNamespace;
}

/** One run's hold on a task's layer. */
export interface OpenStateLayer {
  readonly mode: 'overlay' | 'copy';
  /** Copy mode: each state dir replaced by the task's copy (overlay mode mounts them in its namespace instead). */
  readonly mounts: readonly Mount[];
  /** Runs a command where the overlays are mounted (overlay mode, or the task's worktree layer); the command unchanged otherwise. */
  enter(command: string, args: readonly string[]): { command: string; args: string[] };
  /** Whether `enter` puts the command in a user namespace of the desk's, where bubblewrap must map the desk's ids back. */
  readonly entered: boolean;
  /** The task's own copy of a state file, kept from its earlier turns, if it has one. */
  readonly keptFileOf: (file: string) => string | undefined;
  /** Where a state file the run changed is kept: the task's copy, and the person's file for a login file. */
  readonly destinationsOf: (file: string) => string[];
  /** Ends the run's hold; the last one unmounts and hands changed login files back. Returns lines for the log. */
  release(): Promise<string[]>;
}

/** A container's hold on its task's state: a home of the task's own, with copies of the agent's state in it. */
export interface OpenStateHome {
  /** On this machine: what the container gets as its HOME. */
  readonly home: string;
  /** Hands changed login files back to the person's home. Returns lines for the log. */
  release(): Promise<string[]>;
}

export interface StateLayers {
  open(request: StateLayerRequest): Promise<OpenStateLayer>;
  /**
   * For a container, which cannot enter the desk's namespace and must never get a bind of the person's state: a home
   * folder of the task's own holding copies of the agent's state under `agentHome`, made at its first run.
   */
  openHome(request: StateLayerRequest & { agentHome: string }): Promise<OpenStateHome>;
  /** Removes every layer of a task (its worktree is gone: no later turn can use them). */
  remove(taskId: string): Promise<void>;
}

interface Held {
  plan: StateLayerPlan;
  mode: 'overlay' | 'copy';
  namespace?: StateNamespace;
  holders: number;
}

export function createStateLayers(deps: { dataDir: string; tools: NamespaceTools | undefined; spares?: Pick<SpareProcesses, 'take'> }): StateLayers {
  const held = new Map<string, Promise<Held>>();
  // Found at the first run that tries: a kernel or policy that refuses overlays refuses them for every task.
  let overlayRefusal: string | undefined = deps.tools ? undefined : 'unshare and nsenter (util-linux) are not on PATH';
  let refusalSaid = false;

  async function hold(request: StateLayerRequest, plan: StateLayerPlan): Promise<Held> {
    const nameable = plan.dirs.every((dir) => overlayNameable(dir.path, dir.upper, dir.work));
    // A new submission of the id is a new conversation: nothing of the old one's state (any agent's) carries over.
    if (request.fresh) await removeTask(request.taskId);
    await mkdir(plan.root, { recursive: true, mode: 0o700 });
    if (plan.dirs.length > 0 && deps.tools && overlayRefusal === undefined && nameable) {
      try {
        for (const dir of plan.dirs) {
          await Promise.all([mkdir(dir.upper, { recursive: true, mode: 0o700 }), mkdir(dir.work, { recursive: true, mode: 0o700 })]);
        }
        // The person's login shows through at each run: a task's older token never shadows a newer login.
        await Promise.all(plan.loginFiles.flatMap((file) => layeredDirOf(plan, file)
          .map((dir) => rm(layerPathOf(dir, file, 'overlay'), { force: true }))));
        const overlays = await Promise.all(plan.dirs.map(async (dir) => {
          const real = await realpath(dir.path);
          return { lower: real, upper: dir.upper, work: dir.work, target: real };
        }));
        return { plan, mode: 'overlay', namespace: await openStateNamespace(deps.tools, overlays, request.within, deps.spares), holders: 0 };
      } catch (error) {
        overlayRefusal = error instanceof Error ? error.message : String(error);
      }
    }
    if (overlayRefusal !== undefined && plan.dirs.length > 0 && !refusalSaid) {
      refusalSaid = true;
      request.log(`Agent state: overlays cannot be mounted here (${overlayRefusal}); each task gets a copy of the agent's state dirs instead, made at its first run.`);
    }
    for (const dir of plan.dirs) await copyOnce(dir.path, dir.copy, plan.loginFiles);
    return { plan, mode: 'copy', holders: 0 };
  }

  async function letGo(entry: Held): Promise<string[]> {
    entry.namespace?.close();
    const lines: string[] = [];
    for (const file of entry.plan.loginFiles) {
      const dir = layeredDirOf(entry.plan, file)[0];
      // A login state file goes back through the state scratch (./state-scratch.ts), from the run's own copy.
      if (!dir) continue;
      const line = await handBack(file, layerPathOf(dir, file, entry.mode), entry.plan.root).catch((error: unknown) =>
        `Sandbox: could not hand ${file} back to your home (${error instanceof Error ? error.message : String(error)}); log in again if the agent asks.`);
      if (line) lines.push(line);
    }
    return lines;
  }

  async function removeTask(taskId: string): Promise<void> {
    const dir = join(stateLayersDir(deps.dataDir), taskKey(taskId));
    if ([...held.keys()].some((root) => isWithin(root, dir))) return;
    await removeLayerTree(dir);
  }

  return {
    async open(request) {
      const plan = planStateLayer({ dataDir: deps.dataDir, ...request });
      // An agent without state (the scripted agent) costs nothing here: no folder, no namespace.
      if (plan.dirs.length === 0 && plan.files.length === 0) {
        if (request.fresh) await removeTask(request.taskId);
        return request.within ? { ...STATELESS, enter: request.within.enter, entered: true } : STATELESS;
      }
      // Runs of one task at once (its agent, a person's terminal) share one hold: one mount of each layer.
      let pending = held.get(plan.root);
      if (!pending) {
        pending = hold(request, plan);
        held.set(plan.root, pending);
        pending.catch(() => held.delete(plan.root));
      }
      const opened = await pending;
      opened.holders += 1;
      const keptFiles = new Map(plan.files.map((file) => [file.path, file.kept]));
      let released = false;
      return {
        mode: opened.mode,
        mounts: opened.mode === 'copy' ? plan.dirs.map((dir) => ({ kind: 'scratch-dir' as const, path: dir.path, source: dir.copy, why: "the agent's state: the task's own copy" })) : [],
        enter: (command, args) => (opened.namespace ?? request.within)?.enter(command, args) ?? { command, args: [...args] },
        entered: (opened.namespace ?? request.within) !== undefined,
        keptFileOf: (file) => keptFiles.get(file),
        destinationsOf: (file) => [...(keptFiles.has(file) ? [keptFiles.get(file) ?? ''] : []), ...(plan.loginFiles.includes(file) ? [file] : [])],
        async release() {
          if (released) return [];
          released = true;
          opened.holders -= 1;
          if (opened.holders > 0) return [];
          held.delete(plan.root);
          return letGo(opened);
        },
      };
    },
    remove: removeTask,
    async openHome(request) {
      const plan = planStateLayer({ dataDir: deps.dataDir, ...request });
      const home = join(plan.root, 'home');
      if (request.fresh) await removeTask(request.taskId);
      await mkdir(home, { recursive: true, mode: 0o700 });
      const inHome = (path: string) => (path !== request.agentHome && isWithin(path, request.agentHome) ? join(home, relative(request.agentHome, path)) : undefined);
      for (const path of [...request.stateDirs, ...request.stateFiles]) {
        if (inHome(path) === undefined) request.log(`Agent state: ${path} lies outside the agent's HOME (${request.agentHome}), so its container does not get it.`);
      }
      for (const dir of request.stateDirs) {
        const copy = inHome(dir);
        if (copy !== undefined) await copyOnce(dir, copy, plan.loginFiles);
      }
      for (const file of request.stateFiles) {
        const copy = inHome(file);
        const made = copy === undefined || await lstat(copy).then(() => true, () => false);
        const content = made ? undefined : await readPlain(file, dirname(file)).catch(() => undefined);
        if (copy !== undefined && content !== undefined) await replaceFile(copy, content);
      }
      return {
        home,
        async release() {
          const lines: string[] = [];
          for (const file of plan.loginFiles) {
            const copy = inHome(file);
            const line = copy === undefined ? undefined : await handBack(file, copy, home).catch(() => undefined);
            if (line) lines.push(line);
          }
          return lines;
        },
      };
    },
  };
}

const STATELESS: OpenStateLayer = {
  mode: 'copy', mounts: [], enter: (command, args) => ({ command, args: [...args] }), entered: false,
  keptFileOf: () => undefined, destinationsOf: () => [], release: async () => [],
};

/** The state dir a file lies in (none for a state file outside every dir). */
function layeredDirOf(plan: StateLayerPlan, file: string): LayeredDir[] {
  return plan.dirs.filter((dir) => file !== dir.path && isWithin(file, dir.path));
}

/**
 * Without overlays, the task's state dirs are copies of the person's, made at its first run (sockets and devices left
 * out); at every run the person's login files are copied in again, so a newer login is what the task uses.
 */
async function copyOnce(dir: string, copy: string, loginFiles: readonly string[]): Promise<void> {
  const made = await lstat(copy).then(() => true, () => false);
  if (!made) {
    await mkdir(dirname(copy), { recursive: true, mode: 0o700 });
    await cp(dir, copy, {
      recursive: true, verbatimSymlinks: true, errorOnExist: false, force: true, preserveTimestamps: true,
      filter: async (source) => {
        const stat = await lstat(source).catch(() => undefined);
        return stat !== undefined && (stat.isFile() || stat.isDirectory() || stat.isSymbolicLink());
      },
    }).catch(() => mkdir(copy, { recursive: true, mode: 0o700 }));
  }
  for (const file of loginFiles) {
    if (file === dir || !isWithin(file, dir)) continue;
    const content = await readPlain(file, dirname(file)).catch(() => undefined);
    if (content !== undefined) await replaceFile(join(copy, relative(dir, file)), content);
  }
}

/** Hands a login file the run changed back to the person's home: a plain file of sensible size, never through a link. */
async function handBack(file: string, layered: string, layerRoot: string): Promise<string | undefined> {
  const content = await readPlain(layered, layerRoot).catch(() => undefined);
  if (content === undefined) return undefined;
  if ((await digestOf(file)) === (await digestOf(layered))) return undefined;
  await replaceFile(file, content);
  return `Agent state: handed ${file} back to your home (a login the task refreshed); nothing else the task wrote to the agent's state left the task.`;
}

/**
 * A regular file's content, read without following a link at its end and only when every directory above it lies
 * within `root`: an agent may have left links in its layer.
 */
async function readPlain(path: string, root: string): Promise<Buffer> {
  const parent = await realpath(dirname(path));
  if (!isWithin(parent, await realpath(root))) throw new Error(`${path} leads out of ${root}`);
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > MAX_LOGIN_FILE_BYTES) throw new Error(`${path} is not a plain file under 1 MiB`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * Removes a layer whole. An overlay's work dir holds a directory without permissions (`work/work`), which only its
 * owner's chmod lets anyone but root empty: every directory is opened up first, never through a link.
 */
export async function removeLayerTree(dir: string): Promise<void> {
  await openDirectories(dir).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
}

async function openDirectories(dir: string): Promise<void> {
  const stat = await lstat(dir);
  if (!stat.isDirectory()) return;
  await chmod(dir, 0o700);
  const entries = await readdir(dir, { withFileTypes: true });
  await Promise.all(entries.filter((entry) => entry.isDirectory()).map((entry) => openDirectories(join(dir, entry.name))));
}
