// Where the network bridge's programs are (the bundled files beside the bundled desk, else their sources) and the
// Node arguments that run one of them.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Esbuild from 'esbuild';

/** The Node arguments that run a program: the bundled file, or the source through tsx. */
export function nodeLauncher(entry: string): string[] {
  return entry.endsWith('.ts') ? ['--import', tsxLoaderUrl(), entry] : [entry];
}

/**
 * `name` with its built extension (`.js`; the preload is `.cjs`) beside the bundled desk (out/main, or out/main/chunks
 * when this module lands in a chunk), else the source beside this module.
 */
export function builtNetworkFile(name: string, extension: '.js' | '.cjs' = '.js'): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, `${name}${extension}`), join(here, '..', `${name}${extension}`), join(here, `${name}.ts`)];
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

/**
 * A program's source bundled into one plain CommonJS .cjs (as the build makes the preload), for a desk run from source
 * (tests): what loads into an agent's own Node must not bring tsx along, which would compile every module of the agent
 * (Gemini CLI's start went past 30 s).
 * Bundled with the esbuild tsx itself uses, once per content, into node_modules/.cache (readable in the sandbox, as
 * the sources are; /tmp is not).
 */
export function bundledSource(entry: string): string {
  const fromTsx = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
  const esbuild = fromTsx('esbuild') as typeof Esbuild;
  const [output] = esbuild.buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', target: 'node20', write: false, logLevel: 'silent' }).outputFiles;
  if (!output) throw new Error(`Network: bundling ${entry} gave no output`);
  const dir = join(dirname(fromTsx.resolve('esbuild/package.json')), '..', '.cache', 'assignment-desk-bridge');
  const file = join(dir, `${basename(entry, '.ts')}-${createHash('sha256').update(output.contents).digest('hex').slice(0, 16)}.cjs`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  // Written aside and renamed: desks in parallel test workers may bundle the same file at once.
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, output.contents);
  renameSync(partial, file);
  return file;
}
