// The shell around ./read-view.ts: reads from the machine what the read view of one agent depends on (its PATH, its
// install, what exists and which places are links), for a task's sandbox and for Settings alike.
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join } from 'node:path';
import type { AgentPolicy } from '../../../shared/governance';
import { agentEnvironment } from '../agents/agent-environment';
import type { AgentSpec } from '../agents/agent-spec';
import { agentInstallPaths, agentProgramOnPath } from './agent-install-paths';
import type { ReadViewFacts } from './read-view';
import { isWithin } from './sandbox-layout';

export function readViewFactsFor(request: {
  home: string;
  tempDir: string;
  agent: AgentSpec;
  policy: Pick<AgentPolicy, 'hiddenPaths' | 'readablePaths'>;
  environment: NodeJS.ProcessEnv;
}): ReadViewFacts {
  const pathVariable = agentEnvironment(request.environment, request.agent).PATH ?? '';
  return {
    home: request.home,
    tempDir: request.tempDir,
    pathDirs: pathVariable.split(delimiter).filter(isAbsolute),
    installPaths: agentInstallPaths(request.agent, pathVariable, request.home),
    programOnPath: agentProgramOnPath(request.agent, pathVariable),
    pathLinkTargets: pathLinkTargets(pathVariable.split(delimiter).filter((dir) => isAbsolute(dir) && isWithin(dir, request.home))),
    hiddenPaths: request.policy.hiddenPaths,
    readablePaths: request.policy.readablePaths,
    kindOf: hostKindOf,
    linkTarget,
  };
}

/** `dir`, `file` (anything else that exists, links followed), or undefined. */
export function hostKindOf(path: string): 'dir' | 'file' | undefined {
  try {
    return statSync(path).isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}

function linkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? realpathSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where the links in these directories lead, each as the install it belongs to: a program in a `bin` dir brings the
 * directory above (a virtualenv, a runtime), any other its own directory. Links that lead nowhere are left out.
 */
function pathLinkTargets(dirs: readonly string[]): string[] {
  const targets = new Set<string>();
  for (const dir of dirs) {
    let entries: string[] = [];
    try {
      entries = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isSymbolicLink()).map((entry) => entry.name);
    } catch {
      continue;
    }
    for (const name of entries) {
      const real = linkTarget(join(dir, name));
      if (real === undefined) continue;
      const parent = dirname(real);
      targets.add(basename(parent) === 'bin' ? dirname(parent) : parent);
    }
  }
  return [...targets];
}
