// The service that puts a sandboxed command behind the network bridge: finds the bridge's built files, reads the
// command's `#!` line and looks up Node on the agent's PATH, then lets ./bridge-launch.ts decide how it starts.
import { accessSync, closeSync, constants, existsSync, openSync, readSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installRootOf } from '../agent-install-paths';
import { bridgeLaunch, type BridgeLaunch } from './bridge-launch';
import { builtNetworkFile, bundledSource, nodeLauncher } from './bridge-files';

export interface NetworkBridge {
  /** How `command` starts behind a bridge with these flags; `searchPath` is the PATH the agent runs with. */
  launch(command: string, args: readonly string[], flags: readonly string[], searchPath: string | undefined): BridgeLaunch;
  /**
   * What the bridge's programs load, for the sandbox to keep readable wherever the desk lies (a checkout under /tmp,
   * the home): the bundled files themselves, or for sources the package they belong to.
   */
  places(): string[];
}

export interface NetworkBridgeOptions {
  /** The Node that runs the wrapper (the desk's agent Node). */
  nodePath: string;
  /** The wrapper program: the bundled sandbox-net-bridge.js, or its .ts source (run through tsx). */
  wrapperEntry?: string;
  /** The preload: the bundled sandbox-net-preload.cjs, or its .ts source. */
  preloadEntry?: string;
}

/** The longest `#!` line read: Linux itself reads no more than 256 bytes of it. */
const SHEBANG_BYTES = 256;

export function createNetworkBridge(options: NetworkBridgeOptions): NetworkBridge {
  // Found once, when first needed: a desk whose tasks never need a bridge never looks.
  let files: { wrapper: string[]; preload: string[] } | undefined;
  const filesOnce = () => (files ??= {
    wrapper: nodeLauncher(options.wrapperEntry ?? builtNetworkFile('sandbox-net-bridge')),
    preload: preloadArguments(options.preloadEntry ?? builtNetworkFile('sandbox-net-preload', '.cjs')),
  });
  return {
    launch(command, args, flags, searchPath) {
      if (flags.length === 0) return bridgeLaunch({ command, args, flags, nodePath: options.nodePath, wrapper: [], preload: [] });
      const scriptPath = findProgram(command, searchPath);
      const shebang = scriptPath === undefined ? undefined : readShebang(scriptPath);
      const pathNode = shebang?.includes('env') ? findProgram('node', searchPath) : undefined;
      return bridgeLaunch({ command, args, flags, nodePath: options.nodePath, ...filesOnce(), shebang, scriptPath, pathNode });
    },
    places() {
      const { wrapper, preload } = filesOnce();
      return [...new Set([...wrapper, ...preload].flatMap(placeOfArgument))];
    },
  };
}

/**
 * What a Node argument of the bridge's loads: a bundled file alone; a source (and tsx's loader) the whole package it
 * belongs to (../agent-install-paths.ts), since it imports its neighbours. Flags name nothing.
 */
function placeOfArgument(arg: string): string[] {
  const path = arg.startsWith('file://') ? fileURLToPath(arg) : arg;
  if (!isAbsolute(path)) return [];
  const fromSource = path.endsWith('.ts') || path.includes(`${sep}node_modules${sep}`);
  return [fromSource ? installRootOf(path, homedir(), (dir) => existsSync(join(dir, 'package.json'))) : path];
}

/**
 * `--require` of the preload's absolute path (a CommonJS script: it spares a CommonJS agent Node's ES-module loader).
 * Absolute, or it would be looked up as a package from the agent's cwd, its worktree.
 */
function preloadArguments(entry: string): string[] {
  return ['--require', entry.endsWith('.ts') ? bundledSource(entry) : entry];
}

/** Where a command runs from: itself when it names a path, else the first executable file of that name on PATH. */
function findProgram(command: string, searchPath: string | undefined): string | undefined {
  if (command.includes('/')) return isAbsolute(command) ? command : undefined;
  for (const dir of (searchPath ?? '').split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

function readShebang(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(SHEBANG_BYTES);
    const length = readSync(fd, head, 0, SHEBANG_BYTES, 0);
    const text = head.subarray(0, length).toString('latin1');
    return text.startsWith('#!') ? text.split('\n', 1)[0] : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
