// Installing an agent from the board: `npm install` of its package (or a source the person names, such as a
// tarball) into the desk's own agent cache, never a global prefix, with progress and its log as it runs.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentInstall } from '../../../shared/agents';
import type { TaskEvent } from '../../../shared/events';
import { DeskError } from '../../../shared/desk-error';
import { findCommand, isExecutableFile } from './agent-detection';
import type { AgentRegistry } from './agent-registry';
import { endProcessTree } from './process-tree';

/** Where installed agents live in the data dir; its `node_modules/.bin` is searched after PATH. */
export function agentCacheDir(dataDir: string): string {
  return join(dataDir, 'agent-cache');
}

const installNotPossible = (message: string) => new DeskError('conflict', 'install_unavailable', message);
const installRunning = (message: string) => new DeskError('conflict', 'install_running', message);
const noInstall = (message: string) => new DeskError('not_found', 'unknown_install', message);

/** How much of npm's log is kept for the view. */
const LOG_CHARS = 16_000;
/** An install that takes longer than this is stopped. */
const INSTALL_LIMIT_MS = 15 * 60_000;

export interface AgentInstalls {
  start(agentId: string, source?: string): AgentInstall;
  view(agentId: string): AgentInstall | undefined;
  disposeAll(): Promise<void>;
}

/**
 * An estimate for a bar: npm says nothing about how far it is, so every line it writes moves the bar a step closer
 * to 90 %, and the end fills it. Pure.
 */
export function nextProgress(progress: number): number {
  return progress + (0.9 - progress) * 0.12;
}

export function createAgentInstalls(deps: {
  agents: AgentRegistry;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  now(): Date;
  record(eventsId: string, event: TaskEvent): void;
}): AgentInstalls {
  const installs = new Map<string, { view: AgentInstall; stop(): Promise<void> }>();
  const prefix = agentCacheDir(deps.dataDir);

  return {
    start(agentId, source) {
      const spec = deps.agents.get(agentId);
      if (!spec) throw noInstall(`No agent "${agentId}".`);
      if (installs.get(agentId)?.view.state === 'running') throw installRunning(`${spec.name} is being installed already.`);
      const what = source ?? deps.agents.npmPackageOf(agentId);
      if (!what) throw installNotPossible(`The desk does not know an npm package for ${spec.name}; give one as "source", or "npmPackage" in agents.json.`);
      const npm = findCommand(process.platform === 'win32' ? 'npm.cmd' : 'npm', { env: deps.env, platform: process.platform, searchDirs: [], isExecutable: (path) => isExecutableFile(path) });
      if (!npm.found) throw installNotPossible(`npm was not found on PATH: ${npm.reason}. Install Node.js with npm, or install the agent by hand.`);

      // A package.json of its own, so npm installs here and never walks up into a project or a global prefix.
      mkdirSync(prefix, { recursive: true });
      const manifest = join(prefix, 'package.json');
      if (!existsSync(manifest)) writeFileSync(manifest, `${JSON.stringify({ name: 'assignment-desk-agents', private: true, description: 'Agents installed by Assignment Desk' }, null, 2)}\n`);

      const eventsId = `install:${agentId}`;
      const view: AgentInstall = { agentId, source: what, prefix, state: 'running', progress: 0.05, log: '', startedAt: deps.now().toISOString(), eventsId };
      const args = ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-update-notifier', '--loglevel=http', '--no-save-exact', what];
      const log = (text: string, level: 'info' | 'warn' | 'error' = 'info') => {
        view.log = `${view.log}${text}\n`.slice(-LOG_CHARS);
        deps.record(eventsId, { type: 'log', level, source: 'desk', text });
      };
      log(`npm ${args.join(' ')}`);
      const child = spawn(npm.path, args, {
        cwd: prefix,
        env: { ...deps.env, npm_config_global: 'false', npm_config_prefix: prefix },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        shell: process.platform === 'win32',
      });
      const onOutput = (chunk: Buffer) => {
        for (const line of chunk.toString().split(/\r?\n/)) {
          if (line.trim() === '') continue;
          view.progress = nextProgress(view.progress);
          log(line);
        }
      };
      child.stdout.on('data', onOutput);
      child.stderr.on('data', onOutput);
      const limit = setTimeout(() => { log(`Stopped: npm took longer than ${INSTALL_LIMIT_MS / 60_000} minutes.`, 'error'); if (child.pid !== undefined) void endProcessTree(child.pid); }, INSTALL_LIMIT_MS);
      limit.unref();
      const finished = new Promise<void>((resolve) => {
        const finish = (code: number | null, error?: Error) => {
          clearTimeout(limit);
          view.finishedAt = deps.now().toISOString();
          const found = deps.agents.describeOne(agentId, '');
          if (code === 0 && found?.available) {
            Object.assign(view, { state: 'done', progress: 1, message: `Installed; ${spec.name} runs ${found.resolvedPath}.` });
          } else {
            const why = error ? error.message : code === 0 ? `npm finished, but "${spec.command}" is still not found (${found?.reason ?? 'unknown agent'})` : `npm failed (exit code ${code})`;
            Object.assign(view, { state: 'failed', message: why });
          }
          log(view.message ?? '', view.state === 'done' ? 'info' : 'error');
          resolve();
        };
        child.once('error', (error) => finish(null, error));
        child.once('close', (code) => finish(code));
      });
      installs.set(agentId, { view, stop: async () => { if (child.exitCode === null && child.pid !== undefined) await endProcessTree(child.pid); await finished; } });
      return { ...view };
    },
    view: (agentId) => {
      const install = installs.get(agentId);
      return install && { ...install.view };
    },
    async disposeAll() {
      await Promise.all([...installs.values()].map((install) => install.stop()));
    },
  };
}
