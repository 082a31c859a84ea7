// The desk's task limits, made once at start: the probe's answer, said in the desk's log when limits are not
// enforced per task, and the service the sandbox opens each task's limits through.
import { availableParallelism, totalmem } from 'node:os';
import { probeLimits } from './limits-probe';
import { createTaskLimits, type TaskLimits } from './task-limits';

export async function startTaskLimits(options: { dataDir: string; log(line: string): void }): Promise<TaskLimits> {
  const enforcement = await probeLimits({ dataDir: options.dataDir });
  const { status } = enforcement;
  if (!status.enforced) options.log(`Task limits not enforced: ${status.detail} ${status.reason ?? ''} ${status.fix ?? ''}`.trim());
  return createTaskLimits({ enforcement, machine: { totalMemoryMb: Math.floor(totalmem() / (1024 * 1024)), cpus: availableParallelism() } });
}
