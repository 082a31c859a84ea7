// The ways out of one sandboxed run's network: the host's network when the policy opens it all, else the allowlist
// proxy for the hosts it names and the relay to the desk's MCP server, each a socket bound into the sandbox.
import { readFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import type { AgentSpec } from '../../agents/agent-spec';
import type { RunFolderFiles } from '../run-folder-files';
import { isWithin } from '../sandbox-layout';
import { endpointsInEnvironment, endpointsInToml, reachableGateway, unreachableEndpointNotices, type EndpointSource } from './endpoint-notices';
import { withoutDeskPort } from './loopback-forwards';
import type { GatewayInUse } from './refusal-notices';

/** A way out of the sandbox's own network (the egress proxy, the MCP relay): a socket bound in, and the bridge's flags to it. */
export interface NetworkEnd {
  bridgeFlags: readonly string[];
  bindPaths: readonly string[];
  close(): Promise<void>;
}

/** The network allowlist as the sandbox uses it (./sandbox-network.ts). */
export type AllowlistNetwork = (request: {
  dir: string; hosts: readonly string[]; noProxy?: readonly string[]; reservedPorts?: readonly number[]; gateway?: GatewayInUse;
  log(line: string, level?: 'info' | 'warn'): void;
}) => Promise<NetworkEnd>;

/** The relay to the desk's MCP server (./mcp-relay.ts). */
export type McpRelay = (request: { dir: string; port: number }) => Promise<NetworkEnd>;

export interface RunNetworkRequest {
  agent: Pick<AgentSpec, 'name' | 'networkHosts'>;
  /** The hosts the policy names for the agent, if it names any (else the agent's own). */
  policyHosts: readonly string[] | undefined;
  /** The variables the agent gets: the model endpoints it is pointed at are read from them. */
  agentEnv: Readonly<Record<string, string>>;
  /** The agent's home and state dirs, where Codex's config.toml names its endpoint. */
  agentHome: string;
  stateDirs: readonly string[];
  /** The desk's MCP server the agent is given (a loopback URL). */
  mcpUrl: string | undefined;
  /** The run's folder for the sockets (made when a way out needs it). */
  netDir: string;
  folderFiles: Pick<RunFolderFiles, 'mkdir'>;
  log(line: string, level?: 'info' | 'warn'): void;
}

export interface RunNetwork {
  /** `host`: the sandbox shares the host's network; `none`: its own, reached out of only through the ends below. */
  mode: 'none' | 'host';
  /** How the task's log describes it. */
  note: string;
  proxy?: NetworkEnd;
  relay?: NetworkEnd;
  /** Closes the ends opened (side by side; a failure to close is not the run's). */
  close(): Promise<void>;
}

/** Opens the run's ways out; when one fails, what was opened before it is closed again. */
export async function openRunNetwork(request: RunNetworkRequest, ends: { allowlistNetwork?: AllowlistNetwork; mcpRelay?: McpRelay }): Promise<RunNetwork> {
  const { log, mcpUrl } = request;
  // The desk's own port stays out of reach whatever the policy names: the MCP relay is the way to the desk.
  const deskPort = mcpUrl === undefined ? undefined : Number(new URL(mcpUrl).port);
  const { kept: hosts, dropped } = withoutDeskPort(request.policyHosts ?? request.agent.networkHosts ?? [], deskPort);
  for (const entry of dropped) log(`Network: left out ${JSON.stringify(entry)}: that is the desk's own port, which agents reach only through its MCP server.`);
  const endpoints = await endpointSources(request.agentEnv, request.agentHome, request.stateDirs);
  for (const notice of unreachableEndpointNotices(endpoints, hosts)) log(notice);
  const gateway = reachableGateway(endpoints, hosts);

  const opened: NetworkEnd[] = [];
  const close = async () => { await Promise.all(opened.map((end) => end.close().catch(() => undefined))); };
  const madeDir = () => request.folderFiles.mkdir(request.netDir, { mode: 0o700 });
  try {
    let mode: RunNetwork['mode'] = 'none';
    let proxy: NetworkEnd | undefined;
    let note = 'network off';
    if (hosts.includes('*')) {
      mode = 'host';
      note = 'network open (policy)';
    } else if (hosts.length > 0 && ends.allowlistNetwork) {
      await madeDir();
      // The MCP relay's bridge listens on the sandbox's own loopback: reached directly, not through the proxy.
      proxy = await ends.allowlistNetwork({
        dir: request.netDir, hosts, log,
        ...(gateway && { gateway: { agentName: request.agent.name, gateway: gateway.entry, pointedBy: gateway.name, vendorHosts: request.agent.networkHosts ?? [] } }),
        ...(deskPort !== undefined && { noProxy: ['127.0.0.1'], reservedPorts: [deskPort] }),
      });
      opened.push(proxy);
      note = `network limited to ${hosts.join(', ')}`;
    } else if (hosts.length > 0) {
      note = 'network off (no allowlist proxy available)';
    }
    // Without the host's network the desk's port is out of reach: a relay brings exactly that port in.
    let relay: NetworkEnd | undefined;
    if (deskPort !== undefined && mode === 'none' && ends.mcpRelay) {
      await madeDir();
      relay = await ends.mcpRelay({ dir: request.netDir, port: deskPort });
      opened.push(relay);
    }
    return { mode, note, close, ...(proxy && { proxy }), ...(relay && { relay }) };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The model endpoints the agent is pointed at (`env`: the variables it gets; Codex's config.toml): those the network
 * leaves out of reach are said at the start with the entry to add, rather than found after a silent stall; one it
 * reaches is its gateway.
 */
async function endpointSources(env: Readonly<Record<string, string>>, agentHome: string, stateDirs: readonly string[]): Promise<EndpointSource[]> {
  const sources = endpointsInEnvironment(env);
  const codexHomes = [...(env.CODEX_HOME ? [env.CODEX_HOME] : []), ...stateDirs.filter((dir) => basename(dir) === '.codex')];
  for (const dir of new Set(codexHomes)) {
    const file = join(dir, 'config.toml');
    const text = await readFile(file, 'utf8').catch(() => undefined);
    const shown = isWithin(file, agentHome) ? `~/${relative(agentHome, file)}` : file;
    if (text !== undefined) sources.push(...endpointsInToml(shown, text));
  }
  return sources;
}
