// The limits probe with memory: a start on a machine whose cgroup mounts, the desk's own groups and this boot are as
// they were when a trial run last proved that the desk can write task groups starts from that answer, and the trial
// runs later (desk-limits.ts). Only the modes the desk writes itself are recalled: a delegated systemd scope is a
// process that must be started anyway, and a machine without cgroup limits is asked live so the start says why.
import { readFileSync } from 'node:fs';
import type { LimitsMode } from '../../../../shared/limits';
import type { ProbeMemory } from '../../host/probe-memory';
import { rememberedProbe, type RememberedProbe } from '../../host/remembered-probe';
import { enforcementWithoutTrial, limitsFacts, probeLimits, type LimitsEnforcement, type LimitsProbeOptions } from './limits-probe';
import type { LimitsFacts } from './limits-mode';

/** Changes when the trial run changes, so that no answer to an older question is recalled. */
const TRIAL_VERSION = 1;

const RECALLED_MODES: ReadonlySet<LimitsMode> = new Set(['cgroup-v1', 'cgroup-v2']);

export function rememberedLimitsProbe(memory: ProbeMemory | undefined, options: LimitsProbeOptions): RememberedProbe<LimitsEnforcement> {
  if ((options.platform ?? process.platform) !== 'linux') return rememberedProbe(undefined, { name: 'limits', fingerprint: undefined, probe: () => probeLimits(options), recall: () => undefined, keep: () => undefined });
  const facts = options.facts ?? limitsFacts(options.path ?? process.env.PATH ?? '');
  return rememberedProbe<LimitsEnforcement>(memory, {
    name: 'limits',
    fingerprint: limitsFingerprint(facts),
    probe: () => probeLimits({ ...options, facts }),
    recall: (kept) => {
      const mode = typeof kept === 'object' && kept !== null ? (kept as { mode?: unknown }).mode : undefined;
      return typeof mode === 'string' && RECALLED_MODES.has(mode as LimitsMode) ? enforcementWithoutTrial(facts, options.dataDir, mode as LimitsMode) : undefined;
    },
    keep: (enforcement) => (RECALLED_MODES.has(enforcement.status.mode) ? { mode: enforcement.status.mode } : undefined),
  });
}

/** What the trial's answer depends on: this boot and the facts (mounts, the desk's own groups, controllers, uid). */
export function limitsFingerprint(facts: LimitsFacts, read: (file: string) => string = readOrEmpty): string | undefined {
  const boot = read('/proc/sys/kernel/random/boot_id').trim();
  return boot === '' ? undefined : JSON.stringify({ trial: TRIAL_VERSION, boot, facts });
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
