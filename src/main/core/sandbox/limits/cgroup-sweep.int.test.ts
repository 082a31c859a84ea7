// The task groups of a desk that was killed: the next desk on the same data dir ends what still runs in them and
// removes them before any task starts, and leaves other desks' groups alone. Real cgroups, where the desk may make them.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processExists } from '../../agents/process-tree';
import { joinGroupCommand, planGroup } from './cgroup-plan';
import { createGroup, removeGroup } from './cgroup-groups';
import { probeLimits, type LimitsEnforcement } from './limits-probe';
import { resolveLimits } from './resolve-limits';
import { createTaskLimits } from './task-limits';

const trial = await probeLimits({ dataDir: mkdtempSync(join(tmpdir(), 'desk-limits-probe-')) });
trial.close();
const skip = trial.status.enforced ? false : `limits not enforced here: ${trial.status.reason ?? ''}`;
const machine = { totalMemoryMb: 4096, cpus: 2 };

describe.skipIf(skip)(`task groups a stopped desk left${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const opened: LimitsEnforcement[] = [];
  afterEach(() => { for (const enforcement of opened.splice(0)) enforcement.close(); });

  async function deskLimits(dataDir: string): Promise<LimitsEnforcement> {
    const enforcement = await probeLimits({ dataDir });
    opened.push(enforcement);
    return enforcement;
  }

  /** A process in a group of `enforcement`'s, as a killed desk's agent would be. */
  async function leftover(enforcement: LimitsEnforcement, name: string) {
    const plan = planGroup(enforcement.layout!, name, resolveLimits({ pids: 16 }, machine)); // enforced: a layout exists
    await createGroup(plan);
    const { command, args } = joinGroupCommand(plan.procsFiles, 'sleep', ['60']);
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.unref();
    await new Promise((resolve) => child.once('spawn', resolve));
    return { plan, pid: child.pid as number };
  }

  it('ends what still runs in them and removes them', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'desk-limits-'));
    const before = await deskLimits(dataDir);
    const { plan, pid } = await leftover(before, 't-crashed-1');
    const limits = createTaskLimits({ enforcement: await deskLimits(dataDir), machine });
    expect(await limits.sweep()).toBe(1);
    expect(plan.dirs.some((dir) => existsSync(dir))).toBe(false);
    expect(processExists(pid)).toBe(false);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves the groups of a desk on another data dir alone', async () => {
    const other = await deskLimits(mkdtempSync(join(tmpdir(), 'desk-limits-other-')));
    const { plan, pid } = await leftover(other, 't-running-1');
    try {
      const limits = createTaskLimits({ enforcement: await deskLimits(mkdtempSync(join(tmpdir(), 'desk-limits-'))), machine });
      expect(await limits.sweep()).toBe(0);
      expect(processExists(pid)).toBe(true);
    } finally {
      await removeGroup(plan);
    }
  });
});
