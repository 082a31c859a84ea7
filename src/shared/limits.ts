// The resource limits contract: how much memory, how many processes and CPUs one task may use (one setting for
// every runner), and how this machine enforces them on the local runner.
import { z } from 'zod';

/** Memory (MB), processes (threads count too) and CPUs one task may use; a field left out falls back to a default. */
export const ResourceLimits = z.strictObject({
  /** CPUs the task may use, e.g. 1.5. */
  cpus: z.number().positive().max(1024).optional(),
  memoryMb: z.int().min(16).max(1_048_576).optional(),
  pids: z.int().min(8).max(1_000_000).optional(),
});
export type ResourceLimits = z.infer<typeof ResourceLimits>;

/**
 * How the local runner enforces limits: `systemd-scope` (cgroup v2 through the person's systemd user manager),
 * `cgroup-v2` or `cgroup-v1` (the desk writes the hierarchy itself), `rlimits` (per process only), `none`.
 */
export const LimitsMode = z.enum(['systemd-scope', 'cgroup-v2', 'cgroup-v1', 'rlimits', 'none']);
export type LimitsMode = z.infer<typeof LimitsMode>;

/** The machine's answer, found once at start: shown at start, in Settings and on the cards of tasks it leaves unbounded. */
export const LimitsStatus = z.object({
  mode: LimitsMode,
  /** Whether a task's processes share one memory and process budget (a cgroup); false for `rlimits` and `none`. */
  enforced: z.boolean(),
  /** What enforces them, in a sentence. */
  detail: z.string(),
  /** Why limits are not enforced per task, when they are not. */
  reason: z.string().optional(),
  /** What a person can do about it. */
  fix: z.string().optional(),
});
export type LimitsStatus = z.infer<typeof LimitsStatus>;
