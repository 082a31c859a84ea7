import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { joinGroupCommand, limitCounts, limitHitNotices, planGroup } from './cgroup-plan';
import { resolveLimits } from './resolve-limits';

const machine = { totalMemoryMb: 8192, cpus: 4 };
const tight = resolveLimits({ memoryMb: 300, pids: 64, cpus: 1.5 }, machine);

describe('planGroup', () => {
  it('limits memory, swap, processes and CPU in one v2 group', () => {
    const plan = planGroup({ version: 2, base: '/cg/desk', cpu: true }, 't1', tight);
    expect(plan.dirs).toEqual(['/cg/desk/t1']);
    expect(plan.writes).toEqual([
      { file: '/cg/desk/t1/memory.max', value: String(300 * 1024 * 1024) },
      { file: '/cg/desk/t1/memory.swap.max', value: '0', optional: true },
      { file: '/cg/desk/t1/pids.max', value: '64' },
      { file: '/cg/desk/t1/cpu.max', value: '150000 100000' },
    ]);
    expect(plan.procsFiles).toEqual(['/cg/desk/t1/cgroup.procs']);
    expect(plan.joinFiles).toEqual(['/cg/desk/t1/cgroup.procs']);
    expect(plan.counters).toEqual({ memory: '/cg/desk/t1/memory.events', pids: '/cg/desk/t1/pids.events' });
  });

  it('makes one group per v1 hierarchy and joins the process to each', () => {
    const plan = planGroup({ version: 1, memory: '/m/desk', pids: '/p/desk', cpu: '/c/desk' }, 't1', tight);
    expect(plan.dirs).toEqual(['/m/desk/t1', '/p/desk/t1', '/c/desk/t1']);
    expect(plan.writes.map((write) => write.file)).toEqual([
      '/m/desk/t1/memory.limit_in_bytes', '/m/desk/t1/memory.memsw.limit_in_bytes', '/p/desk/t1/pids.max',
      '/c/desk/t1/cpu.cfs_period_us', '/c/desk/t1/cpu.cfs_quota_us',
    ]);
    expect(plan.procsFiles).toEqual(['/m/desk/t1/cgroup.procs', '/p/desk/t1/cgroup.procs', '/c/desk/t1/cgroup.procs']);
    // The joining shell moves its one thread itself: no wait for the lock cgroup.procs takes.
    expect(plan.joinFiles).toEqual(['/m/desk/t1/tasks', '/p/desk/t1/tasks', '/c/desk/t1/tasks']);
    expect(plan.counters).toEqual({ memory: '/m/desk/t1/memory.oom_control', pids: '/p/desk/t1/pids.events' });
  });

  it('leaves the cpu hierarchy alone when no CPU limit is set', () => {
    const plan = planGroup({ version: 1, memory: '/m', pids: '/p', cpu: '/c' }, 't', resolveLimits({}, machine));
    expect(plan.dirs).toEqual(['/m/t', '/p/t']);
    expect(plan.writes.some((write) => write.file.includes('cpu'))).toBe(false);
  });
});

describe('limitHitNotices', () => {
  const none = { oomKills: 0, refusedForks: 0 };

  it('reads the kill and refusal counts of v1 and v2 counter files', () => {
    expect(limitCounts('oom_kill_disable 0\nunder_oom 0\noom_kill 2\n', 'max 5\n')).toEqual({ oomKills: 2, refusedForks: 5 });
    expect(limitCounts('low 0\nhigh 0\nmax 9\noom 1\noom_kill 1\noom_group_kill 0\n', 'max 0\n')).toEqual({ oomKills: 1, refusedForks: 0 });
  });

  it('names the memory limit, its value and its policy key when the kernel ended a process', () => {
    expect(limitHitNotices(none, { oomKills: 1, refusedForks: 0 }, tight)).toEqual([
      'Memory limit reached (300 MB, policy limits.memoryMb): the kernel ended a process of this task.',
    ]);
  });

  it('names the process limit when a fork was refused', () => {
    expect(limitHitNotices({ oomKills: 1, refusedForks: 3 }, { oomKills: 1, refusedForks: 4 }, tight)).toEqual([
      'Process limit reached (64 processes and threads, policy limits.pids): the task could not start another process or thread.',
    ]);
  });

  it('says when a limit hit was the desk\'s default', () => {
    const [notice] = limitHitNotices(none, { oomKills: 2, refusedForks: 0 }, resolveLimits({}, machine));
    expect(notice).toBe('Memory limit reached (4096 MB, the desk\'s default; policy limits.memoryMb changes it): the kernel ended 2 processes of this task.');
  });

  it('says nothing when the counts did not grow', () => {
    expect(limitHitNotices({ oomKills: 1, refusedForks: 1 }, { oomKills: 1, refusedForks: 1 }, tight)).toEqual([]);
  });
});

describe('joinGroupCommand', () => {
  it('writes 0, the process itself, to every group before it becomes the command', () => {
    const dir = mkdtempSync(join(tmpdir(), 'desk-join-'));
    try {
      const files = [join(dir, 'a'), join(dir, 'with space')];
      // The command reads both files: they were written before it ran.
      const { command, args } = joinGroupCommand(files, '/bin/sh', ['-c', 'cat "$1" "$2"', 'sh', ...files]);
      expect(execFileSync(command, args, { encoding: 'utf8' })).toBe('0\n0\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to run the command when a group cannot be joined', () => {
    const dir = mkdtempSync(join(tmpdir(), 'desk-join-'));
    try {
      const marker = join(dir, 'ran');
      const { command, args } = joinGroupCommand([join(dir, 'missing', 'cgroup.procs')], '/bin/sh', ['-c', `touch ${marker}`]);
      expect(() => execFileSync(command, args, { stdio: 'pipe' })).toThrow(/cannot join the task's cgroup/);
      expect(() => readFileSync(marker)).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
