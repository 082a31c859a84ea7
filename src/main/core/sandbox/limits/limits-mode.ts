// Which ways of enforcing task limits this machine may offer, in the order the desk tries them, read from what
// /proc says about its cgroup mounts and the desk's own groups; and what the desk says when none works. Pure.
import { join } from 'node:path';
import type { LimitsStatus } from '../../../../shared/limits';
import type { CgroupLayout } from './cgroup-plan';

/** One cgroup file system as /proc/self/mountinfo lists it: v1 names its controllers, v2 has them all in one tree. */
export interface CgroupMount { version: 1 | 2; path: string; root: string; controllers: string[] }

/** One line of /proc/self/cgroup: the hierarchy's controllers (none for v2) and the desk's group in it. */
export interface OwnGroup { controllers: string[]; path: string }

export interface LimitsFacts {
  mounts: CgroupMount[];
  ownGroups: OwnGroup[];
  /** The controllers the v2 tree offers (its root's cgroup.controllers); empty when they are bound to v1. */
  v2Controllers: string[];
  uid: number;
  systemdRun?: string;
  prlimit?: string;
}

/**
 * One way to give tasks cgroups, still to be tried: `systemd-scope` asks the person's systemd user manager for a
 * scope delegated to the desk; `cgroup-v2` and `cgroup-v1` create the desk's folder in the hierarchy directly.
 */
export type Candidate =
  | { mode: 'systemd-scope'; systemdRun: string; v2Mount: string; cpu: boolean }
  | { mode: 'cgroup-v2'; v2Mount: string; layout: CgroupLayout & { version: 2 } }
  | { mode: 'cgroup-v1'; layout: CgroupLayout & { version: 1 } };

export function parseMountInfo(text: string): CgroupMount[] {
  const mounts: CgroupMount[] = [];
  for (const line of text.split('\n')) {
    const [before, after] = line.split(' - ');
    if (before === undefined || after === undefined) continue;
    const fields = before.split(' ');
    const [type, , superOptions = ''] = after.split(' ');
    const root = unescapeMountPath(fields[3] ?? '/');
    const path = unescapeMountPath(fields[4] ?? '');
    if (type === 'cgroup2') mounts.push({ version: 2, path, root, controllers: [] });
    if (type === 'cgroup') mounts.push({ version: 1, path, root, controllers: superOptions.split(',').filter((option) => KNOWN_V1.has(option)) });
  }
  return mounts;
}

const KNOWN_V1 = new Set(['memory', 'pids', 'cpu', 'cpuacct', 'cpuset', 'blkio', 'devices', 'freezer', 'hugetlb', 'net_cls', 'net_prio', 'perf_event', 'rdma', 'misc']);

/** mountinfo writes space, tab, newline and backslash as octal escapes. */
function unescapeMountPath(path: string): string {
  return path.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

export function parseProcCgroup(text: string): OwnGroup[] {
  const groups: OwnGroup[] = [];
  for (const line of text.split('\n')) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line.trim());
    if (match) groups.push({ controllers: (match[1] as string).split(',').filter(Boolean), path: match[2] as string });
  }
  return groups;
}

/** The desk's group of a v1 hierarchy or the v2 tree, as a path under where that hierarchy is mounted. */
function ownDirIn(mount: CgroupMount, groups: readonly OwnGroup[]): string | undefined {
  const own = mount.version === 2
    ? groups.find((group) => group.controllers.length === 0)
    : groups.find((group) => mount.controllers.some((controller) => group.controllers.includes(controller)));
  if (!own) return undefined;
  // A mount of a subtree (a container's) starts at its root: the desk's path is relative to that.
  const relativePath = mount.root !== '/' && own.path.startsWith(mount.root) ? own.path.slice(mount.root.length) : own.path;
  return join(mount.path, relativePath);
}

/**
 * The ways to try, best first. A delegated systemd scope is how a person's session hands out cgroups; a v2 tree
 * the desk may write (as root) comes next: the desk's folder sits at its top, beside the desk's own group, since v2
 * lets no group hold both processes and limited children. v1 (as root, as in CI) nests under the desk's own groups.
 */
export function limitCandidates(facts: LimitsFacts, deskFolder: string): Candidate[] {
  const candidates: Candidate[] = [];
  const v2 = facts.mounts.find((mount) => mount.version === 2);
  const v2Usable = v2 !== undefined && facts.v2Controllers.includes('memory') && facts.v2Controllers.includes('pids');
  if (v2 && v2Usable && facts.systemdRun) {
    const own = facts.ownGroups.find((group) => group.controllers.length === 0)?.path ?? '';
    if (own.includes(`/user@${facts.uid}.service/`)) {
      candidates.push({ mode: 'systemd-scope', systemdRun: facts.systemdRun, v2Mount: v2.path, cpu: facts.v2Controllers.includes('cpu') });
    }
  }
  if (v2 && v2Usable) {
    candidates.push({ mode: 'cgroup-v2', v2Mount: v2.path, layout: { version: 2, base: join(v2.path, deskFolder), cpu: facts.v2Controllers.includes('cpu') } });
  }
  const v1Of = (controller: string) => facts.mounts.find((mount) => mount.version === 1 && mount.controllers.includes(controller));
  const [memory, pids, cpu] = [v1Of('memory'), v1Of('pids'), v1Of('cpu')];
  const memoryDir = memory && ownDirIn(memory, facts.ownGroups);
  const pidsDir = pids && ownDirIn(pids, facts.ownGroups);
  const cpuDir = cpu && ownDirIn(cpu, facts.ownGroups);
  if (memoryDir !== undefined && pidsDir !== undefined) {
    candidates.push({ mode: 'cgroup-v1', layout: { version: 1, memory: join(memoryDir, deskFolder), pids: join(pidsDir, deskFolder), ...(cpuDir !== undefined && { cpu: join(cpuDir, deskFolder) }) } });
  }
  return candidates;
}

const CGROUP_FIX = 'Run the desk in a systemd user session on cgroup v2 (most desktop Linux distributions since 2021), or as root '
  + 'with a writable cgroup tree (on the host, or in a container started with --privileged --cgroupns=host); then restart the desk.';

/**
 * The status when no cgroup could be made: rlimits bound each process (not the task as a whole), or nothing does.
 * `problems` are what each way tried said.
 */
export function fallbackStatus(platform: NodeJS.Platform, prlimit: string | undefined, problems: readonly string[]): LimitsStatus {
  if (platform !== 'linux') {
    return { mode: 'none', enforced: false, detail: 'Limits not enforced.', reason: `Task limits are enforced on Linux only (this is ${platform}).`, fix: 'Run the desk on Linux (or in WSL 2) for memory and process limits per task.' };
  }
  const reason = problems.length > 0 ? `The desk cannot give tasks cgroups here: ${problems.join('; ')}.` : 'This machine has no memory and pids cgroup controllers the desk can use.';
  if (prlimit !== undefined) {
    return {
      mode: 'rlimits', enforced: false, reason, fix: CGROUP_FIX,
      detail: 'Limits not enforced per task: each process gets the memory limit on its own data (rlimit), and your user the process limit on top of what it already runs; CPUs are not limited.',
    };
  }
  return { mode: 'none', enforced: false, detail: 'Limits not enforced.', reason, fix: `${CGROUP_FIX} Or install prlimit (util-linux) for limits per process.` };
}
