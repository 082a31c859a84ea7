// What the desk writes to give one task its own cgroup, which files a process writes its pid to in order to join
// it, and which counters say that a limit was hit: for cgroup v1 (one hierarchy per controller) and v2. Pure.
import { join } from 'node:path';
import type { ResolvedLimits } from './resolve-limits';

/** Where this desk's task groups live: its own folder in each v1 hierarchy, or in the v2 tree. */
export type CgroupLayout =
  | { version: 1; memory: string; pids: string; cpu?: string }
  | { version: 2; base: string; cpu: boolean };

/** One limit file; `optional` when the kernel may lack it (swap accounting off, no cpu controller). */
export interface LimitWrite { file: string; value: string; optional?: boolean }

export interface GroupPlan {
  /** Created in this order, removed in reverse. */
  dirs: string[];
  writes: LimitWrite[];
  /** The group's processes, one pid a line: what is left running in it is read here. */
  procsFiles: string[];
  /**
   * A process joins the group by writing `0` (itself) to each of these: on v2 `cgroup.procs`; on v1 each hierarchy's
   * `tasks`, which moves the writing thread alone. The joining shell has one thread, so it moves whole, and recent
   * kernels (6.18 measured) move a thread that moves itself without the global lock `cgroup.procs` takes, whose RCU
   * grace period made each v1 join wait about 7 ms (two hierarchies: ~15 ms before every agent and terminal).
   */
  joinFiles: string[];
  /** The kernel's counts of memory OOM kills (`oom_kill N`) and refused forks (`max N`). */
  counters: { memory: string; pids: string };
}

const CFS_PERIOD_US = 100_000;
const MB = 1024 * 1024;

export function planGroup(layout: CgroupLayout, name: string, limits: ResolvedLimits): GroupPlan {
  const memoryBytes = String(limits.memoryMb.value * MB);
  const quota = limits.cpus ? String(Math.max(1000, Math.round(limits.cpus.value * CFS_PERIOD_US))) : undefined;
  if (layout.version === 2) {
    const dir = join(layout.base, name);
    return {
      dirs: [dir],
      writes: [
        { file: join(dir, 'memory.max'), value: memoryBytes },
        // Swapped out, a runaway would pass its limit and slow the whole machine down instead of ending.
        { file: join(dir, 'memory.swap.max'), value: '0', optional: true },
        { file: join(dir, 'pids.max'), value: String(limits.pids.value) },
        ...(quota !== undefined && layout.cpu ? [{ file: join(dir, 'cpu.max'), value: `${quota} ${CFS_PERIOD_US}` }] : []),
      ],
      procsFiles: [join(dir, 'cgroup.procs')],
      // cgroup.threads takes a thread only within a threaded subtree: a domain group is joined through cgroup.procs.
      joinFiles: [join(dir, 'cgroup.procs')],
      counters: { memory: join(dir, 'memory.events'), pids: join(dir, 'pids.events') },
    };
  }
  const memory = join(layout.memory, name);
  const pids = join(layout.pids, name);
  const cpu = quota !== undefined && layout.cpu !== undefined ? join(layout.cpu, name) : undefined;
  return {
    dirs: [memory, pids, ...(cpu ? [cpu] : [])],
    writes: [
      // memsw (memory + swap) must not be below the memory limit, so the memory limit goes first.
      { file: join(memory, 'memory.limit_in_bytes'), value: memoryBytes },
      { file: join(memory, 'memory.memsw.limit_in_bytes'), value: memoryBytes, optional: true },
      { file: join(pids, 'pids.max'), value: String(limits.pids.value) },
      ...(cpu && quota !== undefined ? [
        { file: join(cpu, 'cpu.cfs_period_us'), value: String(CFS_PERIOD_US) },
        { file: join(cpu, 'cpu.cfs_quota_us'), value: quota },
      ] : []),
    ],
    procsFiles: [memory, pids, ...(cpu ? [cpu] : [])].map((dir) => join(dir, 'cgroup.procs')),
    joinFiles: [memory, pids, ...(cpu ? [cpu] : [])].map((dir) => join(dir, 'tasks')),
    counters: { memory: join(memory, 'memory.oom_control'), pids: join(pids, 'pids.events') },
  };
}

/** `key value` lines (memory.events, memory.oom_control, pids.events) as numbers; other lines are skipped. */
export function parseCounters(text: string): Record<string, number> {
  const counters: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const match = /^(\S+)\s+(\d+)$/.exec(line.trim());
    if (match) counters[match[1] as string] = Number(match[2]);
  }
  return counters;
}

/** The kernel's counts for one group: processes it killed for memory, forks it refused. */
export interface LimitCounts { oomKills: number; refusedForks: number }

export function limitCounts(memoryText: string, pidsText: string): LimitCounts {
  return { oomKills: parseCounters(memoryText).oom_kill ?? 0, refusedForks: parseCounters(pidsText).max ?? 0 };
}

/**
 * What a person reads in the task's activity when the counts grew: which limit, its value, and the policy key that
 * sets it. Says nothing when nothing changed.
 */
export function limitHitNotices(before: LimitCounts, after: LimitCounts, limits: ResolvedLimits): string[] {
  const notices: string[] = [];
  const source = (key: string, fromPolicy: boolean) => (fromPolicy ? `policy ${key}` : `the desk's default; policy ${key} changes it`);
  const kills = after.oomKills - before.oomKills;
  if (kills > 0) {
    notices.push(`Memory limit reached (${limits.memoryMb.value} MB, ${source('limits.memoryMb', limits.memoryMb.fromPolicy)}): `
      + `the kernel ended ${kills === 1 ? 'a process' : `${kills} processes`} of this task.`);
  }
  if (after.refusedForks > before.refusedForks) {
    notices.push(`Process limit reached (${limits.pids.value} processes and threads, ${source('limits.pids', limits.pids.fromPolicy)}): `
      + 'the task could not start another process or thread.');
  }
  return notices;
}

/**
 * Runs `command` as a member of the group from its first instruction: a shell (one thread) writes `0`, itself, into
 * each group's join file (GroupPlan.joinFiles), then becomes the command (exec keeps the pid), so nothing it starts is
 * ever outside. A join that fails ends it with status 125 before the command runs.
 */
export function joinGroupCommand(joinFiles: readonly string[], command: string, args: readonly string[]): { command: string; args: string[] } {
  const script = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo 0 > "$1" || { echo "desk: cannot join the task\'s cgroup $1" >&2; exit 125; }; shift; n=$((n-1)); done; exec "$@"';
  return { command: '/bin/sh', args: ['-c', script, 'desk-join-cgroup', String(joinFiles.length), ...joinFiles, command, ...args] };
}
