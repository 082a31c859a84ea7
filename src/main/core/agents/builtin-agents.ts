// The scripted agent, which every desk has; vendor agents it knows by name are in known-agents.ts.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AgentSpec } from './agent-spec';

/**
 * The scripted agent runs with the same Node as the desk. From a build, `entry` is the bundled
 * scripted-agent.cjs; from source (tests, development) it is the .ts file, loaded through tsx.
 */
export function scriptedAgentSpec(entry: string, nodePath = process.execPath): AgentSpec {
  const args = entry.endsWith('.ts') ? ['--import', tsxLoaderUrl(), entry] : [entry];
  return { id: 'scripted', name: 'Scripted agent', command: nodePath, args, dialect: 'acp', envAllowlist: [], env: {} };
}

/** The agent runs in a task's worktree, where a bare `--import tsx` would not resolve: name the loader by its URL. */
function tsxLoaderUrl(): string {
  const packageJson = createRequire(import.meta.url).resolve('tsx/package.json');
  return pathToFileURL(join(dirname(packageJson), 'dist', 'loader.mjs')).href;
}
