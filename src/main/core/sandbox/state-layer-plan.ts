// Where a task keeps its agent's state: a layer of the task's own in the desk's data dir, above the person's state
// (an overlay's upper dir), or a copy of it where overlays cannot be mounted. Pure: ./state-layers.ts does the work.
import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';
import { isWithin } from './sandbox-layout';

/** One state dir of the agent and where the task's writes to it go. */
export interface LayeredDir {
  /** The dir as the agent sees it (and as the person has it). */
  path: string;
  /** Overlay: the task's upper layer (what the task wrote) and the overlay's work dir beside it. */
  upper: string;
  work: string;
  /** Without overlays: the task's whole copy of the dir, made at its first run. */
  copy: string;
}

/** One state file of the agent (Claude's `~/.claude.json`) and the task's own copy of it. */
export interface LayeredFile {
  path: string;
  kept: string;
}

export interface StateLayerPlan {
  /** Everything of this task's state for this agent: removed whole when the task starts afresh. */
  root: string;
  dirs: LayeredDir[];
  files: LayeredFile[];
  /** The login files (absolute, as the agent sees them) inside those dirs or among those files: they flow back. */
  loginFiles: string[];
}

/** The data dir's folder of every task's state layers. */
export function stateLayersDir(dataDir: string): string {
  return join(dataDir, 'agent-state');
}

/**
 * The folder of one task's state for one agent. Task ids are any text, so they are hashed; the agent's id keeps a task
 * given to another agent from reading the first one's state.
 */
export function stateLayerRoot(dataDir: string, taskId: string, agentId: string): string {
  return join(stateLayersDir(dataDir), taskKey(taskId), shortHash(agentId));
}

/** The name a task's folder has under stateLayersDir: the same for all its agents. */
export function taskKey(taskId: string): string {
  return shortHash(taskId);
}

export function planStateLayer(request: {
  dataDir: string;
  taskId: string;
  agentId: string;
  /** Absolute, `~` expanded. */
  stateDirs: readonly string[];
  stateFiles: readonly string[];
  loginFiles: readonly string[];
}): StateLayerPlan {
  const root = stateLayerRoot(request.dataDir, request.taskId, request.agentId);
  // Named after the path, not its place in the list: an entry added to agents.json keeps the others' layers.
  const dirs = request.stateDirs.map((path) => {
    const dir = join(root, 'dirs', shortHash(path));
    return { path, upper: join(dir, 'upper'), work: join(dir, 'work'), copy: join(dir, 'copy') };
  });
  const files = request.stateFiles.map((path) => ({ path, kept: join(root, 'files', `${shortHash(path)}-${basename(path)}`) }));
  // A login file outside every state place would let agents.json name any file of the home to be written back.
  const loginFiles = request.loginFiles.filter((file) => request.stateFiles.includes(file) || request.stateDirs.some((dir) => file !== dir && isWithin(file, dir)));
  return { root, dirs, files, loginFiles };
}

/** Where a file the agent sees under a state dir lives in the task's layer (`mode` says which kind of layer). */
export function layerPathOf(dir: LayeredDir, path: string, mode: 'overlay' | 'copy'): string {
  return join(mode === 'overlay' ? dir.upper : dir.copy, path.slice(dir.path.length + 1));
}

/**
 * Whether the kernel's overlay options can name these paths: they are a comma-separated list with `:` between lower
 * dirs and `\` as an escape, so a path holding one of those takes the copy instead.
 */
export function overlayNameable(...paths: readonly string[]): boolean {
  return paths.every((path) => !/[,:\\]/.test(path));
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
