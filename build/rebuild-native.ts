// Builds better-sqlite3 for Electron into out/native/<better-sqlite3 version, Electron ABI, platform, arch>/,
// beside (never over) the Node build in node_modules that `npm test` and `npm run serve` use. Run before
// `npm start` and `npm run package`; does nothing when that build already exists.
//
//   npx tsx build/rebuild-native.ts [--out-dir DIR] [--force]
//
// node-gyp downloads Electron's headers from https://electronjs.org/headers (once, into ~/.electron-gyp).
// Offline, point ASSIGNMENT_DESK_ELECTRON_NODEDIR at an unpacked copy of those headers instead.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BINDING_FILE, electronBindingFile, rebuildFailureKind, type BindingTarget } from '../src/main/shell/native-binding';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const modules = join(root, 'node_modules');

function main(): number {
  const { values } = parseArgs({ options: { 'out-dir': { type: 'string' }, force: { type: 'boolean', default: false } } });
  const electronVersion = readJson(join(modules, 'electron', 'package.json')).version as string;
  const abiFile = join(modules, 'electron', 'abi_version');
  if (!existsSync(abiFile)) return fail(`${abiFile} is missing; cannot tell which ABI Electron ${electronVersion} needs.`);
  const target: BindingTarget = {
    betterSqliteVersion: readJson(join(modules, 'better-sqlite3', 'package.json')).version as string,
    abi: readFileSync(abiFile, 'utf8').trim(),
    platform: process.platform,
    arch: process.env.npm_config_arch ?? process.arch,
  };
  const destination = electronBindingFile(resolve(root, values['out-dir'] ?? 'out'), target);
  if (existsSync(destination) && !values.force) {
    process.stdout.write(`SQLite for Electron ${electronVersion} (ABI ${target.abi}) is built: ${destination}\n`);
    return 0;
  }

  process.stdout.write(`Building better-sqlite3 ${target.betterSqliteVersion} for Electron ${electronVersion} (ABI ${target.abi}, ${target.platform}-${target.arch})…\n`);
  const work = mkdtempSync(join(tmpdir(), 'desk-native-'));
  try {
    // A copy, so node_modules/better-sqlite3/build (the Node build) is never touched.
    const source = join(work, 'better-sqlite3');
    cpSync(join(modules, 'better-sqlite3'), source, { recursive: true, filter: (path) => !/[\\/](build|node_modules)$/.test(path) });
    const headers = process.env.ASSIGNMENT_DESK_ELECTRON_NODEDIR;
    const args = [
      join(modules, 'node-gyp', 'bin', 'node-gyp.js'), 'rebuild', '--release',
      `--target=${electronVersion}`, `--arch=${target.arch}`,
      ...(headers ? [`--nodedir=${resolve(headers)}`] : ['--dist-url=https://electronjs.org/headers', `--devdir=${join(homedir(), '.electron-gyp')}`]),
    ];
    const result = spawnSync(process.execPath, args, { cwd: source, env: gypEnvironment(process.env), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
    const built = join(source, 'build', 'Release', BINDING_FILE);
    if (result.status !== 0 || !existsSync(built)) return explainFailure(output, electronVersion);
    mkdirSync(dirname(destination), { recursive: true });
    // Copy then rename: an interrupted build never leaves a half-written binary that looks finished.
    copyFileSync(built, `${destination}.partial`);
    renameSync(`${destination}.partial`, destination);
    process.stdout.write(`Built ${destination}\n`);
    return 0;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * npm passes its config to scripts as npm_config_* variables; a `nodedir` set for Node builds (as on machines
 * that compile against the system's Node headers) would make node-gyp build against Node instead of Electron.
 */
function gypEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean = { ...env };
  for (const key of Object.keys(clean)) {
    if (/^npm_config_(nodedir|target|runtime|disturl|dist_url|devdir)$/i.test(key)) delete clean[key];
  }
  return clean;
}

function explainFailure(output: string, electronVersion: string): number {
  const tail = output.trim().split('\n').slice(-12).join('\n');
  if (rebuildFailureKind(output) === 'network') {
    return fail(`Could not download Electron ${electronVersion}'s headers from https://electronjs.org/headers (no network?).\n`
      + 'The desktop app needs SQLite built for Electron; `npm test` and `npm run serve` do not.\n'
      + 'Retry with network access, or set ASSIGNMENT_DESK_ELECTRON_NODEDIR to an unpacked copy of the headers.', tail);
  }
  return fail('node-gyp could not compile better-sqlite3 for Electron. It needs Python 3, make and a C++20 compiler '
    + '(Xcode command line tools on macOS, Visual Studio Build Tools on Windows).', tail);
}

function fail(message: string, details?: string): number {
  process.stderr.write(`rebuild-native: ${message}\n${details ? `\n${details}\n` : ''}`);
  return 1;
}

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

process.exitCode = main();
