// A desk may start from remembered answers about its machine (bubblewrap works here, the desk can write cgroups here:
// remembered-sandbox-probe.ts, limits/remembered-limits-probe.ts) so that its first answers wait for no trial run.
// This runs the trials they stood for, once, and brings the desk's sandbox status up to date; every run of a task
// waits for it (task-sandbox.ts), so no agent is ever confined, or left unconfined, on a remembered answer.
import type { SandboxStatus } from '../../../shared/sandbox';
import type { RememberedProbe } from '../host/remembered-probe';
import type { DeskLimits } from './limits/desk-limits';

export interface MachineCheck {
  /** Resolves once the answers are live; the trials start at the first call. Never rejects. */
  done(): Promise<void>;
  /** Whether `done` has been called: a desk closing waits for trials under way, and starts none. */
  readonly started: boolean;
}

export interface MachineCheckDeps {
  sandbox: RememberedProbe<SandboxStatus>;
  limits: DeskLimits;
  /** The desk's own status, which Settings, the cards and the sandbox read: brought up to date in place. */
  status: SandboxStatus;
  log(line: string): void;
}

export function createMachineCheck(deps: MachineCheckDeps): MachineCheck {
  let checked: Promise<void> | undefined;
  const run = async () => {
    const [live, limitsChange] = await Promise.all([deps.sandbox.live(), deps.limits.check()]);
    if (sandboxChanged(deps.status, live)) {
      for (const key of ['version', 'path', 'reason', 'fix'] as const) delete deps.status[key];
      Object.assign(deps.status, live);
      deps.log(live.available
        ? `Sandbox changed since the desk last started: agents run confined by ${live.version ?? 'bubblewrap'}.`
        : `Sandbox changed since the desk last started: agents run unsandboxed. ${live.reason ?? ''} ${live.fix ?? ''}`.trim());
    }
    deps.status.limits = deps.limits.limits.status;
    if (limitsChange !== undefined) deps.log(limitsChange);
  };
  return {
    done: () => (checked ??= run().catch((error: unknown) => {
      // The probes answer refusals as statuses; anything else is a bug, said rather than left to stop every task.
      deps.log(`The sandbox check failed: ${error instanceof Error ? error.message : String(error)}`);
    })),
    get started() { return checked !== undefined; },
  };
}

function sandboxChanged(before: SandboxStatus, after: SandboxStatus): boolean {
  return before.available !== after.available || before.kind !== after.kind || before.version !== after.version || before.path !== after.path || before.reason !== after.reason;
}
