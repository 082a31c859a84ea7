// The file work behind task cgroups: the desk's folder in the hierarchy, one group per task run made and removed,
// the kernel's counters read, and the groups a stopped desk left behind swept away.
// The calls are synchronous on purpose: cgroup files live in kernel memory, so each costs microseconds, where a trip
// through libuv's thread pool waits for the event loop; the start's limits probe made some sixty of them in a row.
import { type Dirent, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { limitCounts, type CgroupLayout, type GroupPlan, type LimitCounts } from './cgroup-plan';

/** The folders that hold this desk's task groups: one per v1 hierarchy, one in the v2 tree. */
export function deskFolders(layout: CgroupLayout): string[] {
  return layout.version === 2 ? [layout.base] : [layout.memory, layout.pids, ...(layout.cpu !== undefined ? [layout.cpu] : [])];
}

/** Makes the desk's folders; in v2 it also hands the controllers down, which only a folder without processes may. */
export async function prepareDeskFolders(layout: CgroupLayout, parentOfBase?: string): Promise<void> {
  if (layout.version === 1) {
    for (const folder of deskFolders(layout)) mkdirSync(folder, { recursive: true });
    return;
  }
  const controllers = ['+memory', '+pids', ...(layout.cpu ? ['+cpu'] : [])].join(' ');
  if (parentOfBase !== undefined) writeFileSync(join(parentOfBase, 'cgroup.subtree_control'), controllers);
  mkdirSync(layout.base, { recursive: true });
  writeFileSync(join(layout.base, 'cgroup.subtree_control'), controllers);
}

/** Makes a task's group with its limits; a limit file the kernel lacks (`optional`) is left out. */
export async function createGroup(plan: GroupPlan): Promise<void> {
  for (const dir of plan.dirs) mkdirSync(dir);
  try {
    for (const write of plan.writes) {
      try {
        writeFileSync(write.file, write.value);
      } catch (error) {
        if (!write.optional) throw error;
      }
    }
  } catch (error) {
    await removeGroup(plan);
    throw error;
  }
}

export async function readLimitCounts(plan: GroupPlan): Promise<LimitCounts> {
  return limitCounts(readIfThere(plan.counters.memory), readIfThere(plan.counters.pids));
}

/**
 * Ends whatever still runs in the group (a sandbox's processes are gone with it; an unsandboxed task's may not be)
 * and removes it. The kernel refuses to remove a group until its last process has been reaped: a short wait.
 */
export async function removeGroup(plan: Pick<GroupPlan, 'dirs' | 'procsFiles'>, options: { timeoutMs?: number } = {}): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 2000);
  for (;;) {
    const members = membersOf(plan.procsFiles);
    for (const pid of members) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // It ended meanwhile.
      }
    }
    const left = removeDirs(plan.dirs);
    if (left.length === 0 || Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Removes every task group in the desk's folders (a stopped desk's); resolves with how many it removed. */
export async function sweepDeskFolders(layout: CgroupLayout, keep: readonly string[] = []): Promise<number> {
  const names = new Set<string>();
  for (const folder of deskFolders(layout)) {
    for (const entry of readDirIfThere(folder)) {
      if (entry.isDirectory() && !keep.includes(entry.name)) names.add(entry.name);
    }
  }
  for (const name of names) {
    const dirs = deskFolders(layout).map((folder) => join(folder, name)).filter((dir) => existsSync(dir));
    await removeGroup({ dirs, procsFiles: dirs.map((dir) => join(dir, 'cgroup.procs')) });
  }
  return names.size;
}

function membersOf(procsFiles: readonly string[]): number[] {
  const pids = new Set<number>();
  for (const file of procsFiles) {
    const text = readIfThere(file);
    for (const line of text.split('\n')) if (/^\d+$/.test(line.trim())) pids.add(Number(line.trim()));
  }
  return [...pids];
}

/** Removes what it can, deepest first; answers the dirs still there. */
function removeDirs(dirs: readonly string[]): string[] {
  const left: string[] = [];
  for (const dir of [...dirs].reverse()) {
    try {
      rmdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') left.push(dir);
    }
  }
  return left;
}

/** A file's text, or '' when it is gone (a group removed meanwhile). */
function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function readDirIfThere(folder: string): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
}
