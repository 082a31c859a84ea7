// What the desktop app hands the core that depends on where it runs: the agents (with the scripted agent's
// runtime, see scripted-agent-launch.ts) and the SQLite binary built for Electron. Electron-free.
import { type AgentCatalog, findCommand, hostAgentCatalog, isExecutableFile, scriptedAgentSpec } from '../core/index';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { asarUnpacked, nativeBindingFor } from './native-binding';
import { scriptedAgentLaunch } from './scripted-agent-launch';
import { DeskError } from '../../shared/desk-error';

export interface DesktopAgentsInput {
  dataDir: string;
  /** out/main, where the bundled scripted-agent.cjs sits. */
  mainDir: string;
  packaged: boolean;
  electronPath: string;
  /** The checkout, whose node_modules/.bin may hold agents; none in a packaged app. */
  deskRoot?: string;
  env: NodeJS.ProcessEnv;
  log: (message: string) => void;
}

export function desktopAgentCatalog(input: DesktopAgentsInput): AgentCatalog {
  const node = findCommand('node', { env: input.env, platform: process.platform, searchDirs: [], isExecutable: (path) => isExecutableFile(path) });
  const launch = scriptedAgentLaunch({ packaged: input.packaged, electronPath: input.electronPath, systemNode: node.found ? node.path : undefined });
  if (launch.note) input.log(launch.note);
  // A system Node cannot read inside app.asar; the packaged scripted agent and its modules are unpacked.
  const spec = scriptedAgentSpec(asarUnpacked(join(input.mainDir, 'scripted-agent.cjs')), launch.command);
  return hostAgentCatalog({
    dataDir: input.dataDir,
    scripted: { ...spec, env: { ...spec.env, ...launch.env } },
    ...(input.deskRoot !== undefined && { deskRoot: input.deskRoot }),
    env: input.env,
  });
}

const missingNativeBinding = (message: string) => new DeskError('unavailable', 'missing_native_binding', message);

/** The better-sqlite3 binary for this runtime; throws a clear error when the Electron build was never made. */
export function desktopNativeBinding(outDir: string): string | undefined {
  const betterSqliteVersion = (createRequire(import.meta.url)('better-sqlite3/package.json') as { version: string }).version;
  const file = nativeBindingFor({ versions: process.versions, platform: process.platform, arch: process.arch, outDir, betterSqliteVersion });
  if (file !== undefined && !existsSync(file)) {
    throw missingNativeBinding(`SQLite for this Electron (ABI ${process.versions.modules}) is not built: ${file} is missing. `
      + 'From a checkout, `npm start` builds it first (build/rebuild-native.ts); an installed app ships it.');
  }
  return file;
}
