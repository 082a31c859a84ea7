import { describe, expect, it } from 'vitest';
import type { LimitsStatus } from '../../../shared/limits';
import type { SandboxStatus } from '../../../shared/sandbox';
import type { DeskLimits } from './limits/desk-limits';
import { createMachineCheck } from './machine-check';

const V1: LimitsStatus = { mode: 'cgroup-v1', enforced: true, detail: 'cgroup v1' };
const NONE: LimitsStatus = { mode: 'none', enforced: false, detail: 'no limits' };

/** Limits whose live check says `change` and then hold `after`. */
function limits(after: LimitsStatus, change: string | undefined): DeskLimits & { checks: number } {
  let status = V1;
  const fake = {
    checks: 0,
    limits: { get status() { return status; }, sweep: async () => 0, open: async () => { throw new Error('not in this test'); }, close: () => {} },
    check: async () => { fake.checks++; status = after; return change; },
  };
  return fake;
}

const remembered = (live: SandboxStatus) => ({ first: Promise.resolve(live), remembered: true, live: async () => live });

describe('createMachineCheck', () => {
  it('brings the desk’s own status up to date in place, says what changed, and checks once', async () => {
    const status: SandboxStatus = { kind: 'bubblewrap', available: true, version: 'bubblewrap 0.8.0', path: '/usr/bin/bwrap', limits: V1 };
    const seen = status;
    const lines: string[] = [];
    const deskLimits = limits(NONE, 'Task limits changed since the desk last started: no limits');
    const check = createMachineCheck({
      sandbox: remembered({ kind: 'none', available: false, reason: 'bubblewrap cannot create a sandbox here.', fix: 'Allow user namespaces.' }),
      limits: deskLimits, status, log: (line) => lines.push(line),
    });
    expect(check.started).toBe(false);
    await Promise.all([check.done(), check.done()]);
    expect(check.started).toBe(true);
    expect(deskLimits.checks).toBe(1);
    expect(seen).toEqual({ kind: 'none', available: false, reason: 'bubblewrap cannot create a sandbox here.', fix: 'Allow user namespaces.', limits: NONE });
    expect(lines).toEqual([
      'Sandbox changed since the desk last started: agents run unsandboxed. bubblewrap cannot create a sandbox here. Allow user namespaces.',
      'Task limits changed since the desk last started: no limits',
    ]);
  });

  it('says nothing when the live answers are the remembered ones', async () => {
    const status: SandboxStatus = { kind: 'bubblewrap', available: true, version: 'bubblewrap 0.8.0', path: '/usr/bin/bwrap', limits: V1 };
    const lines: string[] = [];
    await createMachineCheck({ sandbox: remembered({ kind: 'bubblewrap', available: true, version: 'bubblewrap 0.8.0', path: '/usr/bin/bwrap' }), limits: limits(V1, undefined), status, log: (line) => lines.push(line) }).done();
    expect(lines).toEqual([]);
    expect(status).toEqual({ kind: 'bubblewrap', available: true, version: 'bubblewrap 0.8.0', path: '/usr/bin/bwrap', limits: V1 });
  });
});
