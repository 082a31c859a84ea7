// The desk's task limits, made once at start: the probe's answer (or the one remembered from the last start, checked
// live by `check`), said in the desk's log when limits are not enforced per task, and the service the sandbox opens
// each task's limits through.
import { availableParallelism, totalmem } from 'node:os';
import type { ProbeMemory } from '../../host/probe-memory';
import type { LimitsEnforcement } from './limits-probe';
import { rememberedLimitsProbe } from './remembered-limits-probe';
import { createTaskLimits, type TaskLimits } from './task-limits';

export interface DeskLimits {
  /** What tasks open their limits through: the start's answer until `check` has run, the live one after. */
  readonly limits: TaskLimits;
  /** Runs the trial a remembered answer stood in for (once); says what changed, undefined when nothing did. */
  check(): Promise<string | undefined>;
}

export async function startTaskLimits(options: { dataDir: string; log(line: string): void; memory?: ProbeMemory }): Promise<DeskLimits> {
  const probe = rememberedLimitsProbe(options.memory, { dataDir: options.dataDir });
  const machine = { totalMemoryMb: Math.floor(totalmem() / (1024 * 1024)), cpus: availableParallelism() };
  const say = ({ status }: LimitsEnforcement) => {
    if (!status.enforced) options.log(`Task limits not enforced: ${status.detail} ${status.reason ?? ''} ${status.fix ?? ''}`.trim());
  };
  const first = await probe.first;
  say(first);
  let current = createTaskLimits({ enforcement: first, machine });
  let checked: Promise<string | undefined> | undefined;
  return {
    limits: {
      get status() { return current.status; },
      sweep: () => current.sweep(),
      open: (request) => current.open(request),
      close: () => current.close(),
    },
    check: () => (checked ??= !probe.remembered ? Promise.resolve(undefined) : probe.live().then((live) => {
      if (live.status.mode === first.status.mode && JSON.stringify(live.layout) === JSON.stringify(first.layout)) return undefined;
      current.close();
      current = createTaskLimits({ enforcement: live, machine });
      say(live);
      return `Task limits changed since the desk last started: ${live.status.detail}`;
    })),
  };
}
