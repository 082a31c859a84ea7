// The sandbox probe with memory: a start whose machine has not changed since the last one (same boot, same bwrap
// binary, same user-namespace switches) starts from the last answer instead of waiting for bubblewrap's trial run,
// which then runs once the start's first requests are answered (core.ts). Only a sandbox that worked is recalled: a
// machine without one is always asked live, so that the start says why and what to do.
import { readFileSync, statSync } from 'node:fs';
import type { SandboxStatus } from '../../../shared/sandbox';
import type { ProbeMemory } from '../host/probe-memory';
import { rememberedProbe, type RememberedProbe } from '../host/remembered-probe';
import { findOnPath } from '../host/find-on-path';
import { probeSandbox, type ProbeOptions } from './sandbox-probe';

/** Changes when the trial run changes, so that no answer to an older question is recalled. */
const TRIAL_VERSION = 1;

/** The switches that decide whether an unprivileged user may make the namespaces bwrap needs (absent ones read as ''). */
const NAMESPACE_SWITCHES = [
  '/proc/sys/kernel/unprivileged_userns_clone',
  '/proc/sys/kernel/apparmor_restrict_unprivileged_userns',
  '/proc/sys/user/max_user_namespaces',
  // Bumped by the kernel whenever AppArmor's policy changes (a profile for bwrap added or removed).
  '/sys/kernel/security/apparmor/revision',
];

export function rememberedSandboxProbe(memory: ProbeMemory | undefined, options: ProbeOptions = {}): RememberedProbe<SandboxStatus> {
  return rememberedProbe<SandboxStatus>(memory, {
    name: 'sandbox',
    fingerprint: (options.platform ?? process.platform) === 'linux' ? sandboxFingerprint(options.path ?? process.env.PATH ?? '') : undefined,
    probe: () => probeSandbox(options),
    recall: recallStatus,
    keep: (status) => (status.available ? status : undefined),
  });
}

/** What bubblewrap's answer depends on, from files alone; undefined without bwrap (the probe then starts nothing). */
export function sandboxFingerprint(path: string, read: (file: string) => string = readOrEmpty): string | undefined {
  const bwrap = findOnPath('bwrap', path);
  const boot = read('/proc/sys/kernel/random/boot_id').trim();
  if (bwrap === undefined || boot === '') return undefined;
  let binary: number[];
  try {
    const stat = statSync(bwrap);
    // A setuid bit, a new build or a replaced file: any of them may change the answer.
    binary = [stat.dev, stat.ino, stat.size, stat.mtimeMs, stat.ctimeMs, stat.mode, stat.uid];
  } catch {
    return undefined;
  }
  return JSON.stringify({ trial: TRIAL_VERSION, boot, uid: process.getuid?.() ?? -1, bwrap, binary, switches: NAMESPACE_SWITCHES.map((file) => read(file).trim()) });
}

/** A kept answer, when it is a working sandbox's (anything else is asked live). */
function recallStatus(kept: unknown): SandboxStatus | undefined {
  if (typeof kept !== 'object' || kept === null) return undefined;
  const { kind, available, version, path } = kept as Record<string, unknown>;
  if (kind !== 'bubblewrap' || available !== true || typeof version !== 'string' || typeof path !== 'string') return undefined;
  return { kind, available, version, path };
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
