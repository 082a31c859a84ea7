// The repositories of the layers bench (issue 41): a person's checkout of N tracked files of realistic sizes (about
// 240 MB checked out at 50,000) with 30,000 ignored files in node_modules, made once per size and kept in the bench's
// cache (generating 200,000 files takes minutes). The commit is written by `git fast-import` from a seeded generator,
// so every run and every machine gets the same tree.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Bumped whenever what is generated changes, so a cache of the old kind is made again. */
const GENERATION = 1;
/** Ignored files in the person's checkout, as issue 41 measured them. */
export const NODE_MODULES_FILES = 30_000;
const FILES_PER_DIR = 24;
const DIRS_PER_PACKAGE = 20;
const NODE_MODULES_FILES_PER_PACKAGE = 25;
/** File sizes: log-normal around a median of 2.6 KB, mean about 4.8 KB, at most 256 KB (source files, not assets). */
const SIZE_MU = 7.85;
const SIZE_SIGMA = 1.1;
const MAX_FILE_BYTES = 256 * 1024;
const EXTENSIONS = ['ts', 'ts', 'ts', 'tsx', 'json', 'md', 'css', 'js'];

export interface LayersRepo {
  /** The person's checkout (branch `main`, clean, node_modules ignored and present). */
  path: string;
  files: number;
  /** Bytes of the tracked files, as checked out, and of node_modules. */
  trackedBytes: number;
  nodeModulesBytes: number;
}

/** A small seeded generator (mulberry32): the same repository from every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Lines a source file is made of: varied enough that git's compression sees text, not one repeated line. */
function linePool(next: () => number): string[] {
  const words = ['const', 'value', 'return', 'export', 'function', 'import', 'from', 'task', 'desk', 'layer', 'snapshot', 'index', 'await', 'if', 'else', 'string', 'number', 'result', 'options', 'config', 'files', 'commit', 'branch'];
  return Array.from({ length: 4096 }, (_, index) => {
    const indent = '  '.repeat(Math.floor(next() * 4));
    const length = 3 + Math.floor(next() * 9);
    const body = Array.from({ length }, () => words[Math.floor(next() * words.length)]).join(' ');
    return `${indent}${body} ${index};\n`;
  });
}

function fileSize(next: () => number): number {
  // Box-Muller: a normal draw for the log-normal size.
  const normal = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return Math.min(MAX_FILE_BYTES, Math.max(64, Math.round(Math.exp(SIZE_MU + SIZE_SIGMA * normal))));
}

function fileText(next: () => number, pool: readonly string[], size: number): string {
  let text = '';
  while (text.length < size) text += pool[Math.floor(next() * pool.length)];
  return text.slice(0, size - 1) + '\n';
}

/** The tracked path of file `n`: packages of 20 directories of 24 files each, three levels down. */
function trackedPath(n: number): string {
  const dir = Math.floor(n / FILES_PER_DIR);
  const pkg = Math.floor(dir / DIRS_PER_PACKAGE);
  return `packages/pkg-${pkg}/src/module-${dir % DIRS_PER_PACKAGE}/file-${n}.${EXTENSIONS[n % EXTENSIONS.length]}`;
}

/**
 * Holds the cached repositories for this run: two runs at once would make the same one side by side, or take each
 * other's worktrees and branches out (the bench tidies the repository before and after each size). A lock left by a run
 * that no longer lives is taken over. Returns the release.
 */
export function holdBenchCache(cacheDir: string): () => void {
  const lock = join(cacheDir, 'in-use.pid');
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lock, `${process.pid}\n`, { flag: 'wx' });
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    }
    // Empty: the other run has made the file and not written its pid yet, so it lives.
    const text = readFileSync(lock, 'utf8').trim();
    const holder = Number(text);
    if (text === '' || (Number.isInteger(holder) && holder > 0 && alive(holder))) {
      throw new Error(`Another layers bench (${text === '' ? 'just starting' : `pid ${holder}`}) is using the cached repositories in ${cacheDir}; wait for it to end, or give this run another --data-parent.`);
    }
    rmSync(lock, { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The cached checkout of `files` tracked files under `cacheDir`, made now if missing (or left half-made). */
export async function layersRepo(cacheDir: string, files: number, say: (line: string) => void): Promise<LayersRepo> {
  const path = join(cacheDir, `layers-${files}-g${GENERATION}`);
  const done = join(path, '.git', 'desk-bench-complete.json');
  if (existsSync(done)) return { path, ...JSON.parse(readFileSync(done, 'utf8')) as Omit<LayersRepo, 'path'> };
  rmSync(path, { recursive: true, force: true });
  mkdirSync(path, { recursive: true });
  say(`generating a repository of ${files.toLocaleString('en-US')} files and ${NODE_MODULES_FILES.toLocaleString('en-US')} in node_modules in ${path} (once; it is kept)`);
  const started = Date.now();
  git(path, 'init', '--quiet', '--initial-branch=main');
  const trackedBytes = await importTree(path, files);
  // The checkout as a person has it: every file written, the index fresh.
  git(path, 'checkout', '--quiet', '-f', 'main');
  const nodeModulesBytes = writeNodeModules(join(path, 'node_modules'));
  if (git(path, 'status', '--porcelain') !== '') throw new Error(`the generated repository in ${path} is not clean`);
  // The desk trusts a config file's timestamp only once it is two seconds old.
  const configAge = Date.now() - statSync(join(path, '.git', 'config')).mtimeMs;
  if (configAge < 2500) await sleep(2500 - configAge);
  const facts = { files, trackedBytes, nodeModulesBytes };
  writeFileSync(done, JSON.stringify(facts));
  say(`generated in ${((Date.now() - started) / 1000).toFixed(0)} s: ${(trackedBytes / 1e6).toFixed(0)} MB tracked, ${(nodeModulesBytes / 1e6).toFixed(0)} MB in node_modules`);
  return { path, ...facts };
}

/** One commit on `main` holding `files` generated files and a .gitignore for node_modules, through `git fast-import`. */
async function importTree(repo: string, files: number): Promise<number> {
  const importer = spawn('git', ['fast-import', '--quiet', '--done'], { cwd: repo, stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  importer.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
  const exited = new Promise<number | null>((resolveExit) => importer.once('close', resolveExit));
  const write = async (chunk: string): Promise<void> => {
    if (!importer.stdin.write(chunk)) await new Promise((resolveDrain) => importer.stdin.once('drain', resolveDrain));
  };
  const next = random(41);
  const pool = linePool(next);
  const message = `Generated: ${files} files\n`;
  await write(`commit refs/heads/main\ncommitter Bench <bench@example.test> 1767225600 +0000\ndata ${Buffer.byteLength(message)}\n${message}`);
  const inline = async (path: string, text: string): Promise<void> => write(`M 100644 inline ${path}\ndata ${Buffer.byteLength(text)}\n${text}\n`);
  await inline('.gitignore', 'node_modules/\n');
  let bytes = 0;
  for (let n = 0; n < files; n++) {
    const text = fileText(next, pool, fileSize(next));
    bytes += Buffer.byteLength(text);
    await inline(trackedPath(n), text);
  }
  await write('\ndone\n');
  importer.stdin.end();
  const code = await exited;
  if (code !== 0) throw new Error(`git fast-import failed (${code}): ${stderr.trim()}`);
  return bytes;
}

/** `node_modules` as an install leaves it: packages of 25 small files each (a package.json, code, maps, types). */
function writeNodeModules(dir: string): number {
  const next = random(4141);
  const pool = linePool(next);
  let bytes = 0;
  for (let n = 0; n < NODE_MODULES_FILES; n++) {
    const pkg = Math.floor(n / NODE_MODULES_FILES_PER_PACKAGE);
    const packageDir = join(dir, pkg % 7 === 0 ? `@scope-${pkg % 13}` : '', `dep-${pkg}`);
    const inPackage = n % NODE_MODULES_FILES_PER_PACKAGE;
    if (inPackage === 0) mkdirSync(join(packageDir, 'dist'), { recursive: true });
    const name = inPackage === 0 ? 'package.json' : `dist/part-${inPackage}.${inPackage % 3 === 0 ? 'd.ts' : inPackage % 3 === 1 ? 'js' : 'js.map'}`;
    const text = fileText(next, pool, Math.round(fileSize(next) * 0.8));
    bytes += Buffer.byteLength(text);
    writeFileSync(join(packageDir, name), text);
  }
  return bytes;
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim();
}
