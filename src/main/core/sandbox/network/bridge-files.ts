// Where the network bridge's programs are (the bundled files beside the bundled desk, else their sources) and the
// Node arguments that run one of them.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The Node arguments that run a program: the bundled file, or the source through tsx. */
export function nodeLauncher(entry: string): string[] {
  return entry.endsWith('.ts') ? ['--import', tsxLoaderUrl(), entry] : [entry];
}

/**
 * `name`.js beside the bundled desk (out/main, or out/main/chunks when this module lands in a chunk), else the source
 * beside this module.
 */
export function builtNetworkFile(name: string): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, `${name}.js`), join(here, '..', `${name}.js`), join(here, `${name}.ts`)];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`Network: the sandbox network bridge is not built (looked for ${candidates.join(', ')}); rebuild the desk.`);
  // In the packaged app the bridge is unpacked beside app.asar: the Node that runs it cannot read inside the archive.
  return found.replace(`app.asar${sep}`, `app.asar.unpacked${sep}`);
}

/** The bridge runs from the task's worktree, where a bare `--import tsx` would not resolve: name the loader by its URL. */
export function tsxLoaderUrl(): string {
  const packageJson = createRequire(import.meta.url).resolve('tsx/package.json');
  return pathToFileURL(join(dirname(packageJson), 'dist', 'loader.mjs')).href;
}
