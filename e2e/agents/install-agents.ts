// Installs the pinned real agents into the project's cache once; later runs reuse them. `npm run agents:install` runs it,
// and so does the global setup of `npm run test:agents`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { installedVersion } from './agent-availability';
import { AGENTS_CACHE_DIR, REAL_AGENTS } from './real-agents';

const INSTALL_LIMIT_MS = 15 * 60_000;

export default function installAgents(): void {
  const missing = REAL_AGENTS.filter((agent) => installedVersion(agent) !== agent.version || !existsSync(join(AGENTS_CACHE_DIR, 'node_modules', '.bin', agent.bin)));
  if (missing.length === 0) return;
  mkdirSync(AGENTS_CACHE_DIR, { recursive: true });
  // One command for all of them: npm prunes what a later --no-save install does not name.
  const specs = REAL_AGENTS.map((agent) => `${agent.npmPackage}@${agent.version}`);
  process.stderr.write(`Installing ${specs.join(', ')} into ${AGENTS_CACHE_DIR}…\n`);
  const result = spawnSync('npm', ['install', '--prefix', AGENTS_CACHE_DIR, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', ...specs], {
    // Not the project's folder, where npm could read a package name as a path.
    cwd: AGENTS_CACHE_DIR,
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: INSTALL_LIMIT_MS,
    shell: process.platform === 'win32',
  });
  if (result.error) throw new Error(`Could not run npm to install the real agents: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`npm install of the real agents failed with exit code ${result.status} (see its output above)`);
  const stillMissing = REAL_AGENTS.filter((agent) => installedVersion(agent) !== agent.version);
  if (stillMissing.length > 0) throw new Error(`npm did not install ${stillMissing.map((agent) => `${agent.npmPackage}@${agent.version}`).join(', ')}`);
}

// Run as a program (`tsx e2e/agents/install-agents.ts`) it installs and says where.
if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) {
  installAgents();
  process.stdout.write(`Real agents installed in ${AGENTS_CACHE_DIR}: ${REAL_AGENTS.map((agent) => `${agent.npmPackage}@${agent.version}`).join(', ')}\n`);
}
