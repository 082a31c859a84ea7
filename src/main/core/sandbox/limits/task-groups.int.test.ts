// Task groups in the real cgroup tree, where the desk may make them: a run's processes join its group with its
// limits, the group goes when the run ends, and a killed desk's groups are swept by the next desk on its data dir.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processExists } from '../../agents/process-tree';
import { joinGroupCommand, planGroup } from './cgroup-plan';
import { createGroup, removeGroup } from './cgroup-groups';
import { probeLimits, type LimitsEnforcement } from './limits-probe';
import { resolveLimits } from './resolve-limits';
import { createTaskLimits } from './task-limits';

const trial = await probeLimits({ dataDir: dataDirNamed('desk-limits-probe-') });
trial.close();
const skip = trial.status.enforced ? false : `limits not enforced here: ${trial.status.reason ?? ''}`;
const machine = { totalMemoryMb: 4096, cpus: 2 };

/** The desk's folders in the hierarchy (where task groups go). */
function folders(enforcement: LimitsEnforcement): string[] {
  const { layout } = enforcement;
  if (!layout) return [];
  return layout.version === 1 ? [layout.memory, layout.pids, ...(layout.cpu ? [layout.cpu] : [])] : [layout.base];
}

/** A data dir's path, never made: the desk's cgroup folder is named after it, nothing else of it is needed. */
function dataDirNamed(prefix: string): string {
  return join(tmpdir(), `${prefix}${randomBytes(6).toString('hex')}`);
}

describe.skipIf(skip)(`task groups${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const opened: LimitsEnforcement[] = [];
  afterEach(() => { for (const enforcement of opened.splice(0)) enforcement.close(); });

  async function deskLimits(dataDir: string): Promise<LimitsEnforcement> {
    const enforcement = await probeLimits({ dataDir });
    opened.push(enforcement);
    return enforcement;
  }

  /** A process in a group of `enforcement`'s, as a killed desk's agent would be. */
  async function leftover(enforcement: LimitsEnforcement, name: string) {
    await enforcement.ready();
    const plan = planGroup(enforcement.layout!, name, resolveLimits({ pids: 16 }, machine)); // enforced: a layout exists
    await createGroup(plan);
    const { command, args } = joinGroupCommand(plan.joinFiles, 'sleep', ['60']);
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.unref();
    await new Promise((resolve) => child.once('spawn', resolve));
    return { plan, pid: child.pid as number };
  }

  it('runs a task\'s processes in its group with its memory, process and CPU limits, and removes the group when the run ends', async () => {
    const enforcement = await deskLimits(dataDirNamed('desk-limits-'));
    const group = await createTaskLimits({ enforcement, machine }).open({ taskId: 'build', policy: { memoryMb: 300, pids: 64, cpus: 0.5 }, log: () => {} });
    const { command, args } = group.wrap('/bin/sh', ['-c', 'cat /proc/self/cgroup']);
    const name = /\/(t-build-[0-9a-f]{8})$/m.exec(execFileSync(command, args, { encoding: 'utf8' }))?.[1] ?? 'not in a task group';
    const layout = enforcement.layout!; // enforced: a layout exists
    const read = (dir: string, file: string) => readFileSync(join(dir, name, file), 'utf8').trim();
    if (layout.version === 1) {
      expect(read(layout.memory, 'memory.limit_in_bytes')).toBe(String(300 * 1024 * 1024));
      expect(read(layout.pids, 'pids.max')).toBe('64');
      if (layout.cpu !== undefined) expect(read(layout.cpu, 'cpu.cfs_quota_us')).toBe('50000');
    } else {
      expect(read(layout.base, 'memory.max')).toBe(String(300 * 1024 * 1024));
      expect(read(layout.base, 'pids.max')).toBe('64');
    }
    await group.close();
    const folders = layout.version === 1 ? [layout.memory, layout.pids] : [layout.base];
    expect(folders.some((folder) => existsSync(join(folder, name)))).toBe(false);
  });

  it('leaves no folder behind when the desk stops before running a task', async () => {
    const enforcement = await deskLimits(dataDirNamed('desk-limits-'));
    expect(folders(enforcement).filter((dir) => existsSync(dir))).toEqual([]);
  });

  it('ends what still runs in a killed desk\'s groups and removes them', async () => {
    const dataDir = dataDirNamed('desk-limits-');
    const before = await deskLimits(dataDir);
    const { plan, pid } = await leftover(before, 't-crashed-1');
    const limits = createTaskLimits({ enforcement: await deskLimits(dataDir), machine });
    expect(await limits.sweep()).toBe(1);
    expect(plan.dirs.some((dir) => existsSync(dir))).toBe(false);
    expect(processExists(pid)).toBe(false);
  });

  it('leaves the groups of a desk on another data dir alone when it sweeps', async () => {
    const other = await deskLimits(dataDirNamed('desk-limits-other-'));
    const { plan, pid } = await leftover(other, 't-running-1');
    try {
      const limits = createTaskLimits({ enforcement: await deskLimits(dataDirNamed('desk-limits-')), machine });
      expect(await limits.sweep()).toBe(0);
      expect(processExists(pid)).toBe(true);
    } finally {
      await removeGroup(plan);
    }
  });
});
