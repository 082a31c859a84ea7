// The agents every desk knows without configuration. Real vendor agents join through configuration.
import type { AgentSpec } from './agent-spec';

/**
 * The scripted agent runs with the same Node as the desk. From a build, `entry` is the bundled
 * scripted-agent.js; from source (tests, development) it is the .ts file, loaded through tsx.
 */
export function scriptedAgentSpec(entry: string, nodePath = process.execPath): AgentSpec {
  const args = entry.endsWith('.ts') ? ['--import', 'tsx', entry] : [entry];
  return { id: 'scripted', name: 'Scripted agent', command: nodePath, args, dialect: 'acp', envAllowlist: [], env: {} };
}
