// Finds the Electron binary that `npm install` may or may not have downloaded, without ever loading the
// `electron` module: its index.js downloads the binary when it is missing, which must not happen in a test.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type ElectronBinary = { found: true; path: string } | { found: false; reason: string };

/** Where node_modules/electron says its binary is (path.txt, written after the download), if it is there. */
export function findElectronBinary(projectRoot: string, env: NodeJS.ProcessEnv = process.env): ElectronBinary {
  const moduleDir = join(projectRoot, 'node_modules', 'electron');
  if (!existsSync(join(moduleDir, 'package.json'))) return { found: false, reason: 'the electron package is not installed' };
  const pathFile = join(moduleDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  if (relative === '') return { found: false, reason: 'Electron binary not installed (node_modules/electron/path.txt is missing)' };
  const path = join(env.ELECTRON_OVERRIDE_DIST_PATH ?? join(moduleDir, 'dist'), relative);
  return existsSync(path) ? { found: true, path } : { found: false, reason: `Electron binary not installed (${path} is missing)` };
}

/** Why the desktop specs cannot run here, or undefined when they can. */
export function electronUnavailable(projectRoot: string, env: NodeJS.ProcessEnv = process.env, platform = process.platform): string | undefined {
  const binary = findElectronBinary(projectRoot, env);
  if (!binary.found) return `${binary.reason}; these specs run where \`npx electron --version\` works`;
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return 'no display; run them under `xvfb-run`';
  return undefined;
}
