// Limits per task on the local runner: each run of a task gets a cgroup its processes join before they start,
// watched for the kernel's kills and refusals (said in the task's activity), and removed when the run ends.
import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import type { LimitsStatus, ResourceLimits } from '../../../../shared/limits';
import { joinGroupCommand, limitHitNotices, planGroup, type LimitCounts } from './cgroup-plan';
import { createGroup, readLimitCounts, removeGroup, sweepDeskFolders } from './cgroup-groups';
import type { LimitsEnforcement } from './limits-probe';
import { describeLimits, resolveLimits, type MachineSize } from './resolve-limits';

export interface TaskLimits {
  readonly status: LimitsStatus;
  /** Removes the task groups a stopped desk left (ending what still ran in them); call before any task runs. */
  sweep(): Promise<number>;
  /** The limits of one run of a task; `log` is the task's activity. */
  open(request: { taskId: string; policy: ResourceLimits | undefined; log(line: string): void }): Promise<TaskLimitGroup>;
  close(): void;
}

export interface TaskLimitGroup {
  /** For the task's log: the limits and what enforces them. */
  readonly description: string;
  /** The command line that runs `command` inside the limits. */
  wrap(command: string, args: readonly string[]): { command: string; args: string[] };
  /** Says any limit hit not yet said, ends what is left in the group and removes it. */
  close(): Promise<void>;
}

export interface TaskLimitsDeps {
  enforcement: LimitsEnforcement;
  machine: MachineSize;
  /** How often a running task's counters are read (v1 offers no file event to wait for); default 1 s. */
  pollMs?: number;
}

const MB = 1024 * 1024;

export function createTaskLimits(deps: TaskLimitsDeps): TaskLimits {
  const { enforcement } = deps;
  const { status, layout } = enforcement;
  return {
    status,
    sweep: async () => (layout ? sweepDeskFolders(layout, enforcement.reserved) : 0),
    close: () => enforcement.close(),
    async open({ taskId, policy, log }) {
      const limits = resolveLimits(policy, deps.machine);
      if (!layout) {
        log(`${status.detail} ${status.reason ?? ''} ${status.fix ?? ''}`.trim());
        if (enforcement.prlimit === undefined) return { description: '', wrap: (command, args) => ({ command, args: [...args] }), close: async () => {} };
        const prlimit = enforcement.prlimit;
        // RLIMIT_NPROC counts every process of the user: the task may add `pids` to what already runs.
        const nproc = processesOfUser() + limits.pids.value;
        return {
          description: `Limits per process (rlimits): ${limits.memoryMb.value} MB of data each, ${nproc} processes for your user.`,
          wrap: (command, args) => ({ command: prlimit, args: [`--data=${limits.memoryMb.value * MB}`, `--nproc=${nproc}`, '--', command, ...args] }),
          close: async () => {},
        };
      }
      const plan = planGroup(layout, `t-${taskId.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 40)}-${randomBytes(4).toString('hex')}`, limits);
      try {
        await enforcement.ready();
        await createGroup(plan);
      } catch (error) {
        // The hierarchy changed under the desk (remounted read-only, a controller taken away): the run goes on, said.
        log(`Limits not enforced for this run: its cgroup could not be made (${error instanceof Error ? error.message : String(error)}). Restart the desk to set task limits up again.`);
        return { description: '', wrap: (command, args) => ({ command, args: [...args] }), close: async () => {} };
      }
      let seen: LimitCounts = { oomKills: 0, refusedForks: 0 };
      // One read at a time, in order, so that no hit is said twice and the last read sees everything.
      let reading = Promise.resolve();
      const check = () => {
        reading = reading.then(async () => {
          const now = await readLimitCounts(plan);
          for (const notice of limitHitNotices(seen, now, limits)) log(notice);
          seen = now;
        });
        return reading;
      };
      const timer = setInterval(() => { void check(); }, deps.pollMs ?? 1000);
      timer.unref();
      return {
        description: `Limits: ${describeLimits(limits)}; ${status.mode === 'cgroup-v1' ? 'cgroup v1' : 'cgroup v2'}.`,
        wrap: (command, args) => joinGroupCommand(plan.joinFiles, command, args),
        async close() {
          clearInterval(timer);
          await check();
          await removeGroup(plan);
        },
      };
    },
  };
}

function processesOfUser(): number {
  const uid = process.getuid?.();
  let count = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (statSync(`/proc/${name}`).uid === uid) count += 1;
    } catch {
      // It ended meanwhile.
    }
  }
  return count;
}
