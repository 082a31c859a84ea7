// Where an agent's state *files* live in the sandbox (Claude's `~/.claude.json`). Such a file is replaced by
// writing a temp file beside it and renaming it over (with backups beside it too), so a bind mount of the file
// fails (EBUSY) and its directory (the home) must take new entries. The directory is therefore replaced by a
// scratch directory of the task's: the person's entries come back read-only, the state files are copied in
// before the agent starts (the task's own copy from an earlier turn, else the person's) and kept in the task's layer
// when the run ends (./state-layers.ts), and anything else written there is discarded.
// Pure: the shell (./state-scratch.ts) reads the directory and moves the files.
import { basename, dirname, join } from 'node:path';
import type { Mount } from './bwrap-arguments';
import { isWithin } from './sandbox-layout';

/** One entry of a directory the scratch replaces, as the host has it. */
export interface DirEntry {
  name: string;
  kind: 'dir' | 'file' | 'symlink';
}

/** A directory replaced by a scratch directory, and what the desk puts in it before the sandbox starts. */
export interface ScratchPlan {
  /** The directory as the agent sees it (e.g. the home). */
  path: string;
  /** The task's scratch directory on the host that takes its place. */
  source: string;
  /** The state files in it (absolute, as the agent sees them): copied in before, and back after. */
  stateFiles: string[];
  /** The person's entries that come back read-only (mount points the desk creates in the scratch first). */
  readOnly: { path: string; kind: 'dir' | 'file' }[];
  /** Symbolic links copied as they are: a mount would land where they lead, not where they are. */
  symlinks: string[];
}

/**
 * The directories to replace: the parents of state files that no writable place already covers, each with a
 * scratch directory under `scratchRoot`. `mountedPaths` are the paths other mounts of the layout take (hidden
 * credentials, state dirs, the data dir): those entries are left to their own mounts.
 */
export function planStateScratch(request: {
  stateFiles: readonly string[];
  writable: readonly string[];
  mountedPaths: readonly string[];
  scratchRoot: string;
  entriesOf(dir: string): DirEntry[];
}): ScratchPlan[] {
  const byParent = new Map<string, string[]>();
  for (const file of request.stateFiles) {
    if (request.writable.some((place) => isWithin(file, place))) continue;
    const parent = dirname(file);
    byParent.set(parent, [...(byParent.get(parent) ?? []), file]);
  }
  const mounted = new Set(request.mountedPaths);
  return [...byParent.entries()].map(([parent, stateFiles], index) => {
    const plan: ScratchPlan = { path: parent, source: join(request.scratchRoot, String(index)), stateFiles, readOnly: [], symlinks: [] };
    const names = new Set(stateFiles.map((file) => basename(file)));
    for (const entry of request.entriesOf(parent)) {
      const path = join(parent, entry.name);
      if (names.has(entry.name) || mounted.has(path)) continue;
      if (entry.kind === 'symlink') plan.symlinks.push(path);
      else plan.readOnly.push({ path, kind: entry.kind });
    }
    return plan;
  });
}

/** The mounts a plan adds to the layout: the scratch in the directory's place, then the person's entries read-only. */
export function scratchMounts(plans: readonly ScratchPlan[]): Mount[] {
  return plans.flatMap((plan) => [
    { kind: 'scratch-dir' as const, path: plan.path, source: plan.source },
    ...plan.readOnly.map((entry) => ({ kind: 'read-only' as const, path: entry.path })),
  ]);
}

/** Where a state file sits in its plan's scratch directory on the host. */
export function scratchCopyOf(plan: ScratchPlan, stateFile: string): string {
  return join(plan.source, basename(stateFile));
}
