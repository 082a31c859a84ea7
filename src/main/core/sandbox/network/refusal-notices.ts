// What the task's activity says when the egress proxy refuses a connection. Pure. A host the policy leaves out gets a
// warning naming the entry to add, once per host and port. A host the agent tries on its own, its vendor's service,
// while the policy points it at a gateway instead (Claude Code still calls api.anthropic.com beside a gateway on
// 127.0.0.1) is the closed network working as the person meant it: said once per task, as information, with no advice
// to open it.
import { compileAllowlist, isAllowed } from './host-allowlist';

/** The agent pointed at a gateway the network lets it reach, while its vendor's own hosts stay out. */
export interface GatewayInUse {
  /** The agent's name, as the activity shows it. */
  agentName: string;
  /** The allowlist entry of the endpoint it is pointed at (`127.0.0.1:4000`), and where that is said (`ANTHROPIC_BASE_URL`). */
  gateway: string;
  pointedBy: string;
  /** The hosts the agent reaches on its own (its `networkHosts`): its vendor's service. */
  vendorHosts: readonly string[];
}

export interface RefusalNotice {
  text: string;
  level: 'info' | 'warn';
}

/** One task's notices: what to say about each refusal, or undefined when it has been said already. */
export function createRefusalNotices(gateway?: GatewayInUse): (host: string, port: number) => RefusalNotice | undefined {
  const reported = new Set<string>();
  const vendorRules = gateway ? compileAllowlist(gateway.vendorHosts).rules : [];
  let vendorSaid = false;
  return (host, port) => {
    const target = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    if (gateway && isAllowed(vendorRules, host, port)) {
      if (vendorSaid) return undefined;
      vendorSaid = true;
      return {
        level: 'info',
        text: `Network: ${gateway.agentName} also tries ${target}, its vendor's own service; the sandbox keeps it out, as the policy sends it to ${gateway.gateway} (${gateway.pointedBy}) instead.`,
      };
    }
    if (reported.has(target)) return undefined;
    reported.add(target);
    // An entry without a port covers HTTPS and HTTP; any other port must be named.
    const entry = port === 443 || port === 80 ? target.slice(0, target.lastIndexOf(':')) : target;
    return { level: 'warn', text: `Network: refused ${target} (not in the agent's allowlist): add "${entry}" to the policy's network to allow it.` };
  };
}
