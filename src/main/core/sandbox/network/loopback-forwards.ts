// Which loopback endpoints named in an allowlist the in-sandbox bridge listens on, so an agent pointed at
// `http://127.0.0.1:PORT` (a local gateway, a test's stand-in model) reaches it at the same address and port,
// with or without honouring the proxy variables. Pure: the bridge listens, the egress proxy still decides.
import { compileAllowlist, type AllowRule } from './host-allowlist';

/** One listener inside the sandbox and the target the proxy is asked to tunnel its connections to. */
export interface LoopbackForward {
  /** The sandbox's own loopback address: `127.0.0.1` or `::1`. */
  address: '127.0.0.1' | '::1';
  port: number;
  /** `host:port` as CONNECT names it (`127.0.0.1:8080`, `[::1]:8080`, `localhost:8080`). */
  target: string;
}

const LISTEN_ADDRESSES = ['127.0.0.1', '::1'] as const;

/**
 * One forward per loopback address and named port. An entry naming the address itself wins over
 * `localhost:PORT` for that address; `localhost` covers both addresses, since a client may resolve it to either.
 * Entries without a port (`localhost` alone means 80 and 443) and wildcards bring no listener.
 */
export function loopbackForwards(rules: readonly AllowRule[]): LoopbackForward[] {
  const chosen = new Map<string, LoopbackForward>();
  const add = (address: LoopbackForward['address'], port: number, target: string, exact: boolean) => {
    const key = `${address}:${port}`;
    if (exact || !chosen.has(key)) chosen.set(key, { address, port, target });
  };
  for (const rule of rules) {
    if (rule.subdomains || rule.ports === 'web') continue;
    for (const port of rule.ports) {
      if (rule.host === 'localhost') for (const address of LISTEN_ADDRESSES) add(address, port, `localhost:${port}`, false);
    }
  }
  for (const rule of rules) {
    if (rule.subdomains || rule.ports === 'web') continue;
    for (const port of rule.ports) {
      if (rule.host === '127.0.0.1') add('127.0.0.1', port, `127.0.0.1:${port}`, true);
      if (rule.host === '::1') add('::1', port, `[::1]:${port}`, true);
    }
  }
  return [...chosen.values()];
}

/** The bridge's `--forward` value: `127.0.0.1:8080=127.0.0.1:8080`, `[::1]:8080=localhost:8080`. */
export function forwardArgument(forward: LoopbackForward): string {
  const listen = forward.address === '::1' ? `[::1]:${forward.port}` : `${forward.address}:${forward.port}`;
  return `${listen}=${forward.target}`;
}

/**
 * The allowlist without entries that name the desk's own port on loopback: the desk's API holds every task,
 * and an agent reaches the desk only through its MCP relay. Returns what was left out, for the task's log.
 */
export function withoutDeskPort(entries: readonly string[], deskPort: number | undefined): { kept: string[]; dropped: string[] } {
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const entry of entries) {
    const rule = deskPort === undefined ? undefined : compileAllowlist([entry]).rules[0];
    const loopback = rule !== undefined && ['127.0.0.1', 'localhost', '::1'].includes(rule.host);
    if (loopback && rule.ports !== 'web' && rule.ports.includes(deskPort as number)) dropped.push(entry);
    else kept.push(entry);
  }
  return { kept, dropped };
}
