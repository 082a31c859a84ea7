// What a host hands the registry: the known agents, the data dir's agents.json, the ad-hoc agent and where to look for programs.
import { join } from 'node:path';
import type { AgentCatalog } from './agent-registry';
import type { AgentSpec } from './agent-spec';
import { loadAgentsConfig } from './agents-config';
import { KNOWN_AGENTS } from './known-agents';

export interface HostAgentOptions {
  dataDir: string;
  scripted: AgentSpec;
  adHoc?: AgentSpec;
  /** The desk's own install (where its package.json is), when it has a `node_modules/.bin` worth searching. */
  deskRoot?: string;
  env: NodeJS.ProcessEnv;
}

/** Throws `agents_config_invalid` for a bad agents.json, before anything starts. */
export function hostAgentCatalog(options: HostAgentOptions): AgentCatalog {
  return {
    scripted: options.scripted,
    builtins: KNOWN_AGENTS,
    custom: loadAgentsConfig(options.dataDir),
    ...(options.adHoc && { adHoc: options.adHoc }),
    searchDirs: options.deskRoot ? [binDir(options.deskRoot)] : [],
    env: options.env,
  };
}

/** Where npm puts a project's programs. */
export function binDir(projectRoot: string): string {
  return join(projectRoot, 'node_modules', '.bin');
}
