// Test support: whether sandbox tests can run here. Where bubblewrap is missing they skip with the reason,
// except in CI (DESK_REQUIRE_SANDBOX=1, set by .ci/run), where a missing sandbox fails loudly.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SandboxStatus } from '../../../../shared/sandbox';
import { scriptedAgentSpec } from '../../agents/builtin-agents';
import type { AgentSpec } from '../../agents/agent-spec';
import { probeSandbox } from '../sandbox-probe';

export async function sandboxForTests(): Promise<{ status: SandboxStatus; skip: string | false }> {
  const status = await probeSandbox();
  if (status.available) return { status, skip: false };
  if (process.env.DESK_REQUIRE_SANDBOX === '1') {
    throw new Error(`The sandbox tests must run here (DESK_REQUIRE_SANDBOX=1), but: ${status.reason} ${status.fix ?? ''}`);
  }
  return { status, skip: `no sandbox on this machine: ${status.reason}` };
}

/** The attacker agent (./hostile-agent.ts), run from source like the scripted agent. */
export function hostileAgent(): AgentSpec {
  const spec = scriptedAgentSpec(resolve(import.meta.dirname, 'hostile-agent.ts'));
  return { ...spec, id: 'hostile', name: 'Hostile agent' };
}

/** The pids of live processes whose command line holds `marker`. */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (/\) Z /.test(stat)) continue;
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) found.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/**
 * What a failing test should say about a process that is still there: its state, parent, pids in each
 * namespace and command line. Read from /proc; "gone" when it ended meanwhile.
 */
export function describeProcess(pid: number): string {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(status)?.[1]?.trim() ?? '?';
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return `${pid} (state ${field('State')}, parent ${field('PPid')}, pids by namespace ${field('NSpid')}): ${command}`;
  } catch {
    return `${pid} (gone)`;
  }
}
