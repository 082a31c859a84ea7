// The runners' configuration in the runner specs: the scripted agents run from this checkout (through tsx) on
// this machine's Node, with its git at hand, all mounted read-only, as an agent installed here would be.
import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CoreConfig } from '../../src/main/core/core-config';
import { mountedTools } from './test-image';

export const PROJECT_ROOT = resolve(import.meta.dirname, '../..');

/** A worktree of this project may link its node_modules from another checkout: the container needs that one too. */
function nodeModules(): string[] {
  const real = realpathSync(join(PROJECT_ROOT, 'node_modules'));
  return real.startsWith(`${PROJECT_ROOT}/`) ? [] : [real];
}

/** What the runners mount read-only for the test agents: this checkout, its node_modules wherever they are, Node and git. */
export function agentMounts(): string[] {
  return [PROJECT_ROOT, ...nodeModules(), ...mountedTools()];
}

export type DockerRunnerConfig = NonNullable<CoreConfig['runners']>['docker'];

export function dockerRunnersFor(host: string, image: string, over: Partial<DockerRunnerConfig> = {}): CoreConfig['runners'] {
  return { docker: { enabled: true, host, image, mounts: agentMounts(), limits: { cpus: 1, memoryMb: 1024, pids: 256 }, ...over } };
}
