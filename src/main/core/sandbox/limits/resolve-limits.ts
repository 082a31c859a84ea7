// The limits one task runs under: the policy's `limits` where it sets them, the desk's defaults for the rest. Pure.
import type { ResourceLimits } from '../../../../shared/limits';

/** What this machine offers, read once (os.totalmem, os.availableParallelism). */
export interface MachineSize {
  totalMemoryMb: number;
  cpus: number;
}

/** One limit as applied: its value and whether the policy set it (else it is the desk's default). */
export interface AppliedLimit {
  value: number;
  fromPolicy: boolean;
}

export interface ResolvedLimits {
  memoryMb: AppliedLimit;
  pids: AppliedLimit;
  /** Left unlimited unless the policy sets it: a busy CPU slows the machine down but never takes it down. */
  cpus?: AppliedLimit;
}

/**
 * Half the machine's memory stops a runaway while the desk, the person's editor and browser keep the rest; a
 * normal build (a linker, a bundler, a test run) stays far below it. Never below 1 GB, which a build may need.
 */
export const DEFAULT_MEMORY_SHARE = 0.5;
export const MIN_DEFAULT_MEMORY_MB = 1024;
/** A parallel build with its compilers and test workers uses a few hundred processes and threads; a fork bomb reaches this in well under a second. */
export const DEFAULT_PIDS = 4096;

export function resolveLimits(policy: ResourceLimits | undefined, machine: MachineSize): ResolvedLimits {
  const memoryMb = policy?.memoryMb !== undefined
    ? { value: policy.memoryMb, fromPolicy: true }
    : { value: Math.max(MIN_DEFAULT_MEMORY_MB, Math.floor(machine.totalMemoryMb * DEFAULT_MEMORY_SHARE)), fromPolicy: false };
  const pids = policy?.pids !== undefined ? { value: policy.pids, fromPolicy: true } : { value: DEFAULT_PIDS, fromPolicy: false };
  // More CPUs than the machine has would be no limit at all: said as what it is.
  const cpus = policy?.cpus !== undefined ? { value: Math.min(policy.cpus, machine.cpus), fromPolicy: true } : undefined;
  return { memoryMb, pids, ...(cpus && { cpus }) };
}

/** The limits in a few words for the task's log, e.g. "memory 300 MB (policy), 64 processes (policy), CPUs not limited". */
export function describeLimits(limits: ResolvedLimits): string {
  const origin = (limit: AppliedLimit) => (limit.fromPolicy ? 'policy' : 'default');
  const cpus = limits.cpus ? `${limits.cpus.value} CPUs (${origin(limits.cpus)})` : 'CPUs not limited';
  return `memory ${limits.memoryMb.value} MB (${origin(limits.memoryMb)}), ${limits.pids.value} processes (${origin(limits.pids)}), ${cpus}`;
}
